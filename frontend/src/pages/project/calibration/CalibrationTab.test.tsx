import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { drawnChart } from "../../../charts/testing";
import { apiError, json } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { CalibrationTab } from "./CalibrationTab";
import { parseIds, roundRequest, defaultRoundChoices } from "./rule";
import { calibrationProject, members, pooledReport, report, round, roundDetail } from "./fixtures";

const ROUNDS = "/api/v1/projects/p1/calibration-rounds";

describe("roundRequest", () => {
  it("sends a sample or the chosen external ids, and the chosen questions (none: all)", () => {
    expect(roundRequest({ ...defaultRoundChoices, name: " R1 ", participants: ["a"], sample: "10" })).toEqual({
      name: "R1",
      participants: ["a"],
      sample: 10,
      pass: { metric: "accuracy_vs_gold", threshold: 0.8, questions: [] },
    });
    expect(
      roundRequest({ ...defaultRoundChoices, name: "R2", mode: "pick", externalIds: "x1\nx2, x1\n\n", metric: "alpha_with_peers", threshold: "0.67", questions: ["physical"] }),
    ).toEqual({ name: "R2", participants: [], external_ids: ["x1", "x2"], pass: { metric: "alpha_with_peers", threshold: 0.67, questions: ["physical"] } });
    expect(parseIds(" a ,b\nb")).toEqual(["a", "b"]);
  });
});

describe("CalibrationTab", () => {
  it("says when the calibration pool is empty and leads to the Items tab's calibration import", async () => {
    const { calls } = renderInProject(<CalibrationTab />, calibrationProject, {
      "GET /api/v1/projects/p1/members": () => json(200, members),
      [`GET ${ROUNDS}`]: () => json(200, { rounds: [] }),
      "GET /api/v1/projects/p1/items": () => json(200, { items: [], next_cursor: "" }),
    });
    const notice = await screen.findByRole("region", { name: "Calibration pool" });
    expect(notice.textContent).toContain("The calibration pool is empty");
    expect(within(notice).getByRole("link", { name: "Import calibration items" }).getAttribute("href")).toBe("/projects/p1/items?pool=calibration");
    expect(calls.find((c) => c.path === "/api/v1/projects/p1/items")!.search).toBe("?stage=calibration&limit=1");
  });

  it("says nothing of the pool when it has items", async () => {
    renderInProject(<CalibrationTab />, calibrationProject, {
      "GET /api/v1/projects/p1/members": () => json(200, members),
      [`GET ${ROUNDS}`]: () => json(200, { rounds: [] }),
      "GET /api/v1/projects/p1/items": () => json(200, { items: [{ id: "i1" }], next_cursor: "" }),
    });
    await screen.findByText("No rounds yet");
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole("region", { name: "Calibration pool" })).toBeNull();
  });

  it("starts a round from chosen items, participants and pass rule, showing refused fields by the field, then opens it", async () => {
    const { calls } = renderInProject(<CalibrationTab />, calibrationProject, {
      "GET /api/v1/projects/p1/members": () => json(200, members),
      [`GET ${ROUNDS}`]: () => json(200, { rounds: [round({ number: 1, id: "r0", status: "closed", completion: 1 })] }),
      [`POST ${ROUNDS}`]: [
        () =>
          apiError(422, "validation_failed", "the request has invalid fields", {
            "external_ids[1]": { code: "not_in_pool", message: "clip-999 is not in the calibration pool" },
            "pass.threshold": { code: "out_of_range", message: "must be between 0 and 1" },
          }),
        () => json(201, round()),
      ],
      [`GET ${ROUNDS}/r1`]: () => json(200, roundDetail()),
    });
    expect(await screen.findByRole("link", { name: "1. Second pass" })).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Second pass" } });
    fireEvent.click(screen.getByLabelText("These items"));
    fireEvent.change(screen.getByLabelText("External ids"), { target: { value: "clip-001\nclip-999" } });
    fireEvent.click(await screen.findByRole("checkbox", { name: /Ann/ }));
    fireEvent.click(screen.getByRole("checkbox", { name: /Bo/ }));
    fireEvent.change(screen.getByLabelText("Threshold"), { target: { value: "1.5" } });
    fireEvent.click(screen.getByRole("checkbox", { name: "Physical" }));
    expect(screen.queryByRole("checkbox", { name: "Why?" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Start round" }));
    expect(await screen.findByText("clip-999 is not in the calibration pool", {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByText("must be between 0 and 1")).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({
      name: "Second pass",
      participants: ["a", "b"],
      external_ids: ["clip-001", "clip-999"],
      pass: { metric: "accuracy_vs_gold", threshold: 1.5, questions: ["physical"] },
    });
    fireEvent.change(screen.getByLabelText("Threshold"), { target: { value: "0.8" } });
    fireEvent.click(screen.getByRole("button", { name: "Start round" }));
    expect(await screen.findByRole("heading", { name: "Round 2: Second pass" }, { timeout: 5000 })).toBeTruthy();
  }, 20000);

  it("shows each participant's completion, closes the round after asking, and renders the report with its charts", async () => {
    const { calls } = renderInProject(
      <CalibrationTab />,
      calibrationProject,
      {
        [`GET ${ROUNDS}/r1`]: [() => json(200, roundDetail()), () => json(200, roundDetail({ status: "closed", closed_at: "2026-12-01T08:00:00Z" }))],
        [`POST ${ROUNDS}/r1/close`]: () => json(200, round({ status: "closed", closed_at: "2026-12-01T08:00:00Z" })),
        [`GET ${ROUNDS}/r1/report`]: () => json(200, report()),
        [`GET ${ROUNDS}`]: () => json(200, { rounds: [] }),
        [`POST ${ROUNDS}/r1/notes`]: () => json(201, { id: "n1" }),
      },
      "/r1",
    );
    expect(await screen.findByRole("progressbar", { name: "Bo: 2 of 4" }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole("progressbar", { name: "Round completion" }).getAttribute("aria-valuenow")).toBe("50");
    fireEvent.click(screen.getByRole("button", { name: "Close round" }));
    expect(screen.getByText("Not everyone has finished. Close anyway?")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Close now" }));
    const perAnnotator = await screen.findByRole("table", { name: "Per annotator" }, { timeout: 5000 });
    expect(calls.some((c) => c.method === "POST" && c.path.endsWith("/close"))).toBe(true);
    expect(within(perAnnotator).getByRole("row", { name: /^Ann\b/ }).textContent).toContain("Passed");
    expect(within(perAnnotator).getByRole("row", { name: /Cy/ }).textContent).toContain("Not passed");
    for (const name of [/Score per annotator/, /alpha per question/, /heatmap/, /Trend over rounds/]) {
      await drawnChart(name);
    }
    expect(screen.getByRole("img", { name: /Score per annotator/ }).textContent).toContain("pass 0.80");
    expect(screen.getByRole("img", { name: /Trend over rounds/ }).textContent).toContain("Round 2");
    const perQuestion = screen.getByRole("table", { name: "Per question" });
    expect(within(perQuestion).getByRole("row", { name: /Physical adherence/ }).textContent).toContain("[0.21, 0.63]");
    const disputed = screen.getByRole("table", { name: "Most disputed" });
    expect(within(disputed).getByRole("row", { name: /clip-003/ }).textContent).toContain("Bo: 2");
    fireEvent.click(within(disputed).getByRole("button", { name: "Add note" }));
    expect((screen.getByLabelText("Item") as HTMLSelectElement).value).toBe("i3");
    expect((screen.getByLabelText("Question") as HTMLSelectElement).value).toBe("physical");
    fireEvent.change(screen.getByLabelText("Note"), { target: { value: "A 4: the contact is plausible." } });
    fireEvent.click(screen.getByRole("button", { name: "Save note" }));
    expect((await screen.findByText(/Note saved on clip-003/)).textContent).toContain("physical");
    expect(calls.find((c) => c.path.endsWith("/notes"))?.body).toEqual({ item_id: "i3", question: "physical", note: "A 4: the contact is plausible." });
  }, 20000);

  it("tells a non-lead that rounds are for leads", () => {
    renderInProject(<CalibrationTab />, { ...calibrationProject, my_roles: ["annotator"] }, {});
    expect(screen.getByText("Only the project's leads run calibration rounds.")).toBeTruthy();
  });
});

// RoboJudge's Table 5 pools PA and IA: the report shows the pooled figures beside each score's, and the trend starts on them.
describe("Pooled scores", () => {
  it("shows the pooled figures in the question table and as the first trend", async () => {
    renderInProject(
      <CalibrationTab />,
      calibrationProject,
      {
        [`GET ${ROUNDS}/r1`]: () => json(200, roundDetail({ status: "closed" })),
        [`GET ${ROUNDS}/r1/report`]: () => json(200, pooledReport()),
      },
      "/r1",
    );
    const perQuestion = await screen.findByRole("table", { name: "Per question" }, { timeout: 5000 });
    const row = within(perQuestion).getByRole("row", { name: /Pooled: Physical adherence \+ Instruction alignment/ });
    expect(row.textContent).toContain("52.9");
    expect(row.textContent).toContain("92.1");
    expect(row.textContent).toContain("0.58");
    expect(row.textContent).toContain("[0.30, 0.70]");
    const picker = screen.getByLabelText("Question shown") as HTMLSelectElement;
    expect(picker.selectedOptions[0].textContent).toBe("Pooled: Physical adherence + Instruction alignment");
    await drawnChart(/Trend over rounds/);
    fireEvent.change(picker, { target: { value: "alignment" } });
    expect((screen.getByLabelText("Question shown") as HTMLSelectElement).value).toBe("alignment");
  }, 20000);

  it("has no pooled row without pooled figures", async () => {
    renderInProject(
      <CalibrationTab />,
      calibrationProject,
      {
        [`GET ${ROUNDS}/r1`]: () => json(200, roundDetail({ status: "closed" })),
        [`GET ${ROUNDS}/r1/report`]: () => json(200, report()),
      },
      "/r1",
    );
    const perQuestion = await screen.findByRole("table", { name: "Per question" }, { timeout: 5000 });
    expect(within(perQuestion).queryByRole("row", { name: /Pooled/ })).toBeNull();
  }, 20000);
});

// The trend chart follows the chosen question.
describe("Round over round", () => {
  it("switches the trend to another question", async () => {
    renderInProject(
      <CalibrationTab />,
      calibrationProject,
      {
        [`GET ${ROUNDS}/r1`]: () => json(200, roundDetail({ status: "closed" })),
        [`GET ${ROUNDS}/r1/report`]: () => json(200, report()),
      },
      "/r1",
    );
    const trend = await screen.findByRole("img", { name: /Trend over rounds/ }, { timeout: 5000 }).then(() => drawnChart(/Trend over rounds/));
    expect(trend.textContent).toContain("MAD");
    fireEvent.change(screen.getByLabelText("Question shown"), { target: { value: "realistic" } });
    await waitFor(() => expect(screen.getByRole("img", { name: /Trend over rounds/ }).textContent).not.toContain("MAD"));
  }, 20000);
});
