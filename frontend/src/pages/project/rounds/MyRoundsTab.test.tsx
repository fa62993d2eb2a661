import { describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { calibrationProject, mine, round } from "../calibration/fixtures";
import { MyRoundsTab } from "./MyRoundsTab";

vi.mock("../../../auth", () => ({ useCurrentUser: () => ({ id: "b", email: "bo@example.com", name: "Bo", is_admin: false }) }));

const annotator = { ...calibrationProject, my_roles: ["annotator"] } as typeof calibrationProject;
const ROUNDS = "/api/v1/projects/p1/calibration-rounds";

describe("MyRoundsTab", () => {
  it("lists the person's rounds with their own progress, Annotate while open and results once closed", async () => {
    renderInProject(<MyRoundsTab />, annotator, {
      [`GET ${ROUNDS}`]: () => json(200, { rounds: [round(), round({ id: "r0", number: 1, name: "First pass", status: "closed" })] }),
    });
    const table = await screen.findByRole("table", { name: "My calibration rounds" }, { timeout: 5000 });
    const open = within(table).getByRole("row", { name: /Second pass/ });
    expect(within(open).getByRole("progressbar").getAttribute("aria-valuenow")).toBe("50");
    expect(open.textContent).toContain("2 of 4 items");
    expect(within(open).getByRole("link", { name: "Annotate" }).getAttribute("href")).toBe("/annotate");
    const closed = within(table).getByRole("row", { name: /First pass/ });
    expect(within(closed).getByRole("link", { name: "Results and feedback" }).getAttribute("href")).toBe("/r0");
  });

  it("shows a closed round's answers beside gold or the majority, with the lead's notes", async () => {
    renderInProject(<MyRoundsTab />, annotator, { [`GET ${ROUNDS}/r1/mine`]: () => json(200, mine()) }, "/r1");
    const item = await screen.findByRole("region", { name: "Item 3" }, { timeout: 5000 });
    const physical = within(item).getByRole("row", { name: /Physical adherence/ });
    expect(physical.textContent).toContain("2");
    expect(physical.textContent).toContain("4 (Gold)");
    expect(physical.textContent).toContain("Differs");
    expect(physical.textContent).toContain("The arm passes through the table");
    expect(within(item).getByRole("row", { name: /realistic/ }).textContent).toContain("Yes (Majority)");
    expect(screen.getByText("Not passed")).toBeTruthy();
    expect(screen.getByText("Your score 0.75")).toBeTruthy();
  });
});
