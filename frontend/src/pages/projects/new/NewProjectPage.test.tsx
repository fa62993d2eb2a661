import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { ProjectDetail } from "../../../api/workflowTypes";
import { json, type RecordedCall } from "../../../test/fakeApi";
import { renderInProject } from "../../project/testing";
import { NewProjectPage } from "./NewProjectPage";
import { parseSchemaText } from "../setup/schemaText";

const none = {} as ProjectDetail;

const BAD = `inputs:
  - {name: prompt, type: text}
questions:
  - {key: ok, kind: binay, label: Is it right?}
  - {key: score, kind: likert, label: Score}
`;
const GOOD = `inputs:
  - {name: prompt, type: text}
questions:
  - {key: ok, kind: binary, label: Is it right?}
`;

/** The server's check, as the API answers it: a 200 verdict with problems by path for the bad schema. */
function validate(call: RecordedCall) {
  const body = call.body as { schema?: { questions: { kind: string }[] }; name?: string };
  if (body.schema?.questions.some((q) => q.kind === "binay")) {
    return json(200, {
      valid: false,
      errors: [
        { field: "schema.questions[0].kind", code: "invalid_value", message: '"binay" is not a question kind' },
        { field: "schema.questions[1].max", code: "required", message: "likert needs min and max" },
      ],
    });
  }
  return json(200, { valid: true, workflow: { overlap: 1, review: "none", adjudication: "on_disagreement", on_no_consensus: "adjudicate", lease_minutes: 30, blind_review: false, spot_check_rate: 0, show_annotator_names: false } });
}

function open() {
  const view = renderInProject(<NewProjectPage />, none, { "GET /api/v1/templates": () => json(200, []), "POST /api/v1/schemas/validate": validate }, "/projects/new");
  fireEvent.click(screen.getByLabelText("Upload or paste a schema"));
  return view;
}

describe("New project wizard, own schema", () => {
  it("shows the server's problems at their paths while the schema is typed, then accepts the fixed one", async () => {
    const { calls } = open();
    const next = screen.getByRole("button", { name: "Next: project and workflow" }) as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText("Schema (YAML or JSON)"), { target: { value: BAD } });
    const list = await screen.findByRole("list", { name: "Schema problems" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((li) => li.getAttribute("data-path"))).toEqual(["schema.questions[0].kind", "schema.questions[1].max"]);
    expect(items[0].textContent).toBe('schema.questions[0].kind "binay" is not a question kind');
    expect(screen.getByLabelText("Schema (YAML or JSON)").getAttribute("aria-invalid")).toBe("true");
    expect(next.disabled).toBe(true);
    // The YAML was read in the browser and sent as JSON.
    expect((calls.find((c) => c.path === "/api/v1/schemas/validate")!.body as { schema: unknown }).schema).toEqual(parseSchemaText(BAD).ok && (parseSchemaText(BAD) as { setup: { schema: unknown } }).setup.schema);

    fireEvent.change(screen.getByLabelText("Schema (YAML or JSON)"), { target: { value: GOOD } });
    await screen.findByText("The server accepts this schema.");
    expect(screen.queryByRole("list", { name: "Schema problems" })).toBeNull();
    await waitFor(() => expect(next.disabled).toBe(false));
    // The preview renders the form with a placeholder item.
    expect(within(screen.getByRole("region", { name: "Preview" })).getByText("Is it right?")).toBeTruthy();
  }, 20_000);

  it("opens the members step from the creation answer, without reading the project again", async () => {
    const created = { id: "p9", name: "Mine", description: "", template: "", guidelines: "", archived_at: null, schema_version: 1, schema: parseSchemaText(GOOD).ok ? (parseSchemaText(GOOD) as { setup: { schema: unknown } }).setup.schema : null, workflow: {}, created_by: "u1", created_at: "", updated_at: "", my_roles: ["lead"] };
    const { calls } = renderInProject(
      <NewProjectPage />,
      none,
      {
        "GET /api/v1/templates": () => json(200, []),
        "POST /api/v1/schemas/validate": validate,
        "POST /api/v1/projects": () => json(201, created),
        "GET /api/v1/projects": () => json(200, []),
        "GET /api/v1/projects/p9/members": () => json(200, []),
        "GET /api/v1/projects/p9/invitations": () => json(200, []),
      },
      "/projects/new",
    );
    fireEvent.click(screen.getByLabelText("Upload or paste a schema"));
    fireEvent.change(screen.getByLabelText("Schema (YAML or JSON)"), { target: { value: GOOD } });
    const next = screen.getByRole("button", { name: "Next: project and workflow" }) as HTMLButtonElement;
    await waitFor(() => expect(next.disabled).toBe(false));
    fireEvent.click(next);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: "Mine" } });
    const create = screen.getByRole("button", { name: /Create project|Checking/ }) as HTMLButtonElement;
    await waitFor(() => expect(create.disabled).toBe(false));
    fireEvent.click(create);
    await screen.findByText("Mine", { selector: ".wizard-created strong" });
    expect(calls.some((c) => c.method === "GET" && c.path === "/api/v1/projects/p9")).toBe(false);
  }, 20_000);

  it("starts the policy and the guidelines from the template's own (unwrapped) and sends the policy as the lead leaves it", async () => {
    const workflow = { overlap: 3, consensus: { nominal: "majority" }, adjudication: "never", on_no_consensus: "drop", criteria_stage: { form: "criteria", question: "criteria", input: "criterion", overlap: 3, authors_label: true } };
    const template = {
      id: "omnireward-pair",
      name: "Omni-Reward",
      description: "Pairs under a criterion",
      guidelines: "Built in two\nstages.\n\n1. Criteria: write several\n   short criteria.\n2. Preference\n",
      schema: { version: 1, inputs: [{ name: "prompt", type: "text" }, { name: "criterion", type: "text" }], questions: [{ key: "q", kind: "binary", label: "Q" }] },
      forms: [{ key: "criteria", name: "Criteria", schema: { version: 1, inputs: [{ name: "prompt", type: "text" }], questions: [{ key: "criteria", kind: "criteria", label: "Criteria" }] } }],
      samples: [],
      workflow,
    };
    const { calls } = renderInProject(
      <NewProjectPage />,
      none,
      {
        "GET /api/v1/templates": () => json(200, [{ id: template.id, name: template.name, description: template.description, question_count: 1 }]),
        "GET /api/v1/templates/omnireward-pair": () => json(200, template),
        "POST /api/v1/schemas/validate": validate,
      },
      "/projects/new?template=omnireward-pair",
    );
    const next = screen.getByRole("button", { name: "Next: project and workflow" }) as HTMLButtonElement;
    await waitFor(() => expect(next.disabled).toBe(false));
    fireEvent.click(next);
    await waitFor(() => expect((screen.getByLabelText("Labels per item") as HTMLInputElement).value).toBe("3"));
    expect((screen.getByLabelText("Criteria stage") as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText("Guidelines") as HTMLTextAreaElement).value).toBe("Built in two stages.\n\n1. Criteria: write several short criteria.\n2. Preference\n");
    expect((screen.getByLabelText("Authors label their own criteria") as HTMLInputElement).checked).toBe(true);
    const sent = () => calls.filter((c) => c.path === "/api/v1/schemas/validate").at(-1)?.body as { workflow?: unknown } | undefined;
    await waitFor(() => expect(sent()?.workflow).toEqual(workflow));
    fireEvent.click(screen.getByLabelText("Authors label their own criteria"));
    await waitFor(() => expect(sent()?.workflow).toEqual({ ...workflow, criteria_stage: { ...workflow.criteria_stage, authors_label: false } }));
  }, 20_000);

  it("says where the text is not YAML, without asking the server", async () => {
    const { calls } = open();
    fireEvent.change(screen.getByLabelText("Schema (YAML or JSON)"), { target: { value: "inputs:\n  - {name: prompt\nquestions: []\n" } });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(/^Line \d+, column \d+: the text is not valid YAML or JSON/);
    await new Promise((r) => setTimeout(r, 400));
    expect(calls.filter((c) => c.path === "/api/v1/schemas/validate")).toEqual([]);
  });

  it("reads a template-like file with forms and guidelines", () => {
    const r = parseSchemaText(JSON.stringify({ schema: { version: 1, inputs: [], questions: [] }, forms: [{ key: "criteria", schema: { version: 1 } }], guidelines: "Be kind." }));
    expect(r).toEqual({ ok: true, setup: { schema: { version: 1, inputs: [], questions: [] }, forms: { criteria: { version: 1 } }, guidelines: "Be kind." } });
  });
});
