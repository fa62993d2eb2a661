import { describe, expect, it } from "vitest";
import { fireEvent, render, screen, within } from "@testing-library/react";
import { useState } from "react";
import type { Schema } from "../../../api";
import { PolicyForm } from "./PolicyForm";
import { POLICY_FIELDS, type PolicyContext, type PolicyDraft } from "./policyFields";

const schema = { version: 1, inputs: [{ name: "prompt", type: "text" }, { name: "criterion", type: "text" }], questions: [{ key: "q", kind: "binary", label: "Q" }] } as Schema;
const criteriaForm = { version: 1, inputs: [{ name: "prompt", type: "text" }], questions: [{ key: "criteria", kind: "criteria", label: "Criteria" }] } as Schema;

function Harness({ initial = {}, context = { schema }, errors, seen }: { initial?: PolicyDraft; context?: PolicyContext; errors?: Record<string, string>; seen: PolicyDraft[] }) {
  const [p, setP] = useState<PolicyDraft>(initial);
  return (
    <PolicyForm
      value={p}
      onChange={(next) => {
        seen.push(next);
        setP(next);
      }}
      context={context}
      errors={errors}
    />
  );
}

describe("PolicyForm", () => {
  it("explains every field in one line and shows the defaults for unset fields", () => {
    render(<Harness seen={[]} />);
    for (const f of POLICY_FIELDS) expect(f.help.length, f.path).toBeGreaterThan(20);
    const overlap = screen.getByLabelText("Labels per item") as HTMLInputElement;
    expect(overlap.value).toBe("1");
    expect(overlap.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(overlap.getAttribute("aria-describedby")!.split(" ")[0])!.textContent).toBe("How many different annotators label each item independently.");
    expect((screen.getByLabelText("Lease") as HTMLInputElement).value).toBe("30");
    expect((screen.getByLabelText("Adjudication") as HTMLSelectElement).value).toBe("on_disagreement");
  });

  it("takes the project's languages as a typed list, leaves the key out when empty, and names a refused tag on the field", () => {
    const seen: PolicyDraft[] = [];
    render(<Harness seen={seen} errors={{ "workflow.languages[1]": '"??" is not a BCP 47 language tag' }} />);
    const box = screen.getByLabelText("Languages") as HTMLInputElement;
    fireEvent.change(box, { target: { value: "en, zh-Hans," } });
    expect(box.value).toBe("en, zh-Hans,");
    expect(seen.at(-1)?.languages).toEqual(["en", "zh-Hans"]);
    fireEvent.change(box, { target: { value: " " } });
    expect(seen.at(-1) && "languages" in seen.at(-1)!).toBe(false);
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getAllByText('"??" is not a BCP 47 language tag')).toHaveLength(1);
  });

  it("sets nested fields, and shows fields only where they apply", () => {
    const seen: PolicyDraft[] = [];
    render(<Harness seen={seen} />);
    fireEvent.change(screen.getByLabelText("Labels per item"), { target: { value: "3" } });
    expect(seen.at(-1)).toEqual({ overlap: 3 });
    expect(screen.queryByLabelText("Blind review")).toBeNull();
    fireEvent.change(screen.getByLabelText("Review"), { target: { value: "cross" } });
    fireEvent.click(screen.getByLabelText("Blind review"));
    fireEvent.change(screen.getByLabelText("Consensus"), { target: { value: "majority" } });
    expect(seen.at(-1)).toEqual({ overlap: 3, review: "cross", blind_review: true, consensus: { nominal: "majority" } });
    // The drop rule only matters without adjudication.
    expect(screen.queryByLabelText("Without consensus")).toBeNull();
    fireEvent.change(screen.getByLabelText("Adjudication"), { target: { value: "never" } });
    fireEvent.change(screen.getByLabelText("Without consensus"), { target: { value: "drop" } });
    expect(seen.at(-1)).toMatchObject({ adjudication: "never", on_no_consensus: "drop" });
    expect(screen.queryByLabelText("Show annotator names")).toBeNull();
    fireEvent.change(screen.getByLabelText("Spot checks"), { target: { value: "5" } });
    expect(seen.at(-1)!.spot_check_rate).toBeCloseTo(0.05);
  });

  it("lets a number be cleared while typing without sending an empty value", () => {
    const seen: PolicyDraft[] = [];
    render(<Harness initial={{ overlap: 3 }} seen={seen} />);
    const overlap = screen.getByLabelText("Labels per item") as HTMLInputElement;
    fireEvent.change(overlap, { target: { value: "" } });
    expect(overlap.value).toBe("");
    expect(seen).toEqual([]);
    fireEvent.change(overlap, { target: { value: "5" } });
    expect(seen.at(-1)).toEqual({ overlap: 5 });
  });

  it("turns optional stages on with choices from the schema and its forms", () => {
    const seen: PolicyDraft[] = [];
    const { unmount } = render(<Harness seen={seen} />);
    expect(screen.queryByLabelText("Criteria stage")).toBeNull();
    fireEvent.click(screen.getByLabelText("Drafts from predictions"));
    expect(seen.at(-1)).toEqual({ draft_from_predictions: { method: "majority" } });
    fireEvent.change(screen.getByLabelText("Draft method"), { target: { value: "model" } });
    fireEvent.change(screen.getByLabelText("Model"), { target: { value: "judge-a" } });
    expect(seen.at(-1)).toEqual({ draft_from_predictions: { method: "model", model: "judge-a" } });
    unmount();

    const more: PolicyDraft[] = [];
    render(<Harness seen={more} context={{ schema, forms: { criteria: criteriaForm } }} />);
    fireEvent.click(screen.getByLabelText("Criteria stage"));
    expect(more.at(-1)).toEqual({ criteria_stage: { form: "criteria", question: "criteria", input: "criterion" } });
    expect((screen.getByLabelText("Criterion input") as HTMLSelectElement).value).toBe("criterion");
    expect((screen.getByLabelText("Authors label their own criteria") as HTMLInputElement).checked).toBe(false);
    fireEvent.change(screen.getByLabelText("Criteria authors per item"), { target: { value: "3" } });
    fireEvent.click(screen.getByLabelText("Authors label their own criteria"));
    expect(more.at(-1)).toEqual({ criteria_stage: { form: "criteria", question: "criteria", input: "criterion", overlap: 3, authors_label: true } });
    fireEvent.click(screen.getByLabelText("Criteria stage"));
    expect(more.at(-1)).toEqual({});
    expect(screen.queryByLabelText("Authors label their own criteria")).toBeNull();
  });

  it("shows the server's problems at their fields, and others below", () => {
    render(<Harness seen={[]} errors={{ "workflow.overlap": "overlap must be 1 to 50", "workflow.gold_rate": "unknown field" }} />);
    const field = document.querySelector('[data-field="overlap"]') as HTMLElement;
    expect(within(field).getByText("overlap must be 1 to 50").className).toBe("field-error");
    expect(screen.getByLabelText("Labels per item").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("alert").textContent).toBe("workflow.gold_rate: unknown field");
  });
});
