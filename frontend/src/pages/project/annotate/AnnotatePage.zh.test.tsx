import { describe, expect, it } from "vitest";
import { act, render, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { Claim, ProjectDetail } from "../../../api/workflowTypes";
import { ApiClient, ApiProvider, type Schema } from "../../../api";
import { AuthProvider } from "../../../auth";
import i18n from "../../../i18n";
import { adminUser, authBody, fakeFetch, json, memoryStorage } from "../../../test/fakeApi";
import { renderInProject } from "../testing";
import { AnnotatePage } from "./AnnotatePage";

const schema: Schema = {
  version: 1,
  inputs: [{ name: "prompt", type: "text", label: "Prompt" }],
  questions: [{ key: "ok", kind: "binary", label: "Looks right", required: true }],
};
const project = { id: "p1", name: "Pilot", my_roles: ["annotator"], schema, workflow: {}, guidelines: "Read **carefully**." } as unknown as ProjectDetail;
const claim: Claim = {
  assignment: { id: "a1", stage: "label", lease_expires_at: "2030-01-01T00:00:00Z", version: 1, schema_version: 1, draft_source: null },
  item: { role: "annotator", schema, item: { external_id: "item-1", inputs: { prompt: "Describe the picture" } } },
  draft: null,
  context: {},
} as Claim;

/** Signs a user in through the AuthProvider, as the app does, and returns the client. */
async function signIn(locale: string) {
  const f = fakeFetch({
    "POST /api/v1/auth/login": () => json(200, authBody("A1", { ...adminUser, locale } as typeof adminUser)),
    "POST /api/v1/auth/logout": () => new Response(null, { status: 204 }),
  });
  const client = new ApiClient({ fetch: f.fetch, storage: memoryStorage(), locks: null });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ApiProvider client={client}>
        <AuthProvider>
          <span />
        </AuthProvider>
      </ApiProvider>
    </QueryClientProvider>,
  );
  await act(() => client.login("ada@example.org", "pw"));
  return client;
}


describe("AnnotatePage in Simplified Chinese", () => {
  it("switches to the signed-in user's locale and back to the browser's after sign-out", async () => {
    const client = await signIn("zh-CN");
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    await act(() => client.logout());
    // jsdom's browser language is en-US
    await waitFor(() => expect(i18n.language).toBe("en"));
  });

  it("shows the work bar, the item actions, the form and the guidelines in Chinese for a zh-CN user", async () => {
    await signIn("zh-CN");
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    renderInProject(<AnnotatePage />, project, {
      "POST /api/v1/projects/p1/queue/next": () => json(200, claim),
      "GET /api/v1/projects/p1/me/progress": () => json(200, { stages: [{ stage: "label", done_today: 3, done_total: 1204, available: 7, available_capped: false }] }),
    });
    await screen.findByText("item-1");
    expect(screen.getByRole("button", { name: /跳过/ })).toBeTruthy();
    expect(screen.getByRole("button", { name: /标记问题/ })).toBeTruthy();
    expect(screen.getByRole("radio", { name: /是/ })).toBeTruthy();
    expect(screen.getByRole("button", { name: /提交/ })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "标注指南" })).toBeTruthy();
    expect(screen.getByText("必答")).toBeTruthy();
    expect(screen.getByText("已回答 0/1")).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId("progress-left").textContent).toMatch(/^剩余 \d+$/));
    expect(screen.getByTestId("progress-done").textContent).toBe("3 / 1,204");
    // Template content stays as the project gives it.
    expect(screen.getByRole("heading", { name: "Looks right" })).toBeTruthy();
    expect(screen.queryByText("Skip")).toBeNull();
    expect(document.documentElement.lang).toBe("zh-CN");
  });
});
