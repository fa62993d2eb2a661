import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { LoginForm } from "./LoginForm";
import { ApiError } from "../../api";

function fill(email: string, password: string) {
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: email } });
  fireEvent.change(screen.getByLabelText("Password"), { target: { value: password } });
  fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
}

describe("LoginForm", () => {
  it("submits the trimmed email and the password", async () => {
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    render(<LoginForm onSubmit={onSubmit} />);
    fill("  admin@example.com ", " secret ");
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith("admin@example.com", " secret "));
  });

  it("disables the button while signing in", async () => {
    let resolve!: () => void;
    const onSubmit = vi.fn(() => new Promise<void>((r) => (resolve = r)));
    render(<LoginForm onSubmit={onSubmit} />);
    fill("a@b.c", "pw");
    const button = await screen.findByRole("button", { name: "Signing in…" });
    expect(button).toHaveProperty("disabled", true);
    resolve();
  });

  it("shows the server's message when sign-in fails, and lets the user retry", async () => {
    const onSubmit = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(401, "unauthorized", "Wrong email or password."))
      .mockResolvedValueOnce(undefined);
    render(<LoginForm onSubmit={onSubmit} />);
    fill("a@b.c", "bad");
    expect((await screen.findByRole("alert")).textContent).toContain("Wrong email or password.");
    const button = screen.getByRole("button", { name: "Sign in" });
    expect(button).toHaveProperty("disabled", false);

    fill("a@b.c", "good");
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
  });
});
