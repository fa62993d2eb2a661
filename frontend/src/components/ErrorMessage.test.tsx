import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { ErrorMessage } from "./ErrorMessage";
import { ApiError } from "../api";

describe("ErrorMessage", () => {
  it("renders nothing without an error", () => {
    const { container } = render(<ErrorMessage error={null} />);
    expect(container.innerHTML).toBe("");
  });

  it("shows the title, message and each field problem", () => {
    const err = new ApiError(422, "validation_failed", "The user is not valid.", {
      email: { code: "invalid", message: "Not an email address." },
      password: "Too short.",
    });
    render(<ErrorMessage error={err} title="Could not create the user." />);
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("Could not create the user.");
    expect(alert.textContent).toContain("The user is not valid.");
    const items = screen.getAllByRole("listitem").map((li) => li.textContent);
    expect(items).toEqual(["email: Not an email address.", "password: Too short."]);
  });

  it("shows plain errors too", () => {
    render(<ErrorMessage error={new Error("Disk full")} />);
    expect(screen.getByRole("alert").textContent).toBe("Disk full");
  });
});
