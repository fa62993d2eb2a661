import { describe, expect, it } from "vitest";
import { directUrl, resolveMediaUrl, TEMPLATE_MEDIA_BASE } from "./resolve";
import { ApiClient } from "../api";
import { fakeFetch, json, memoryStorage } from "../test/fakeApi";

describe("media resolver", () => {
  it("resolves relative sample paths under the page's base", () => {
    expect(directUrl("media/apple.png", TEMPLATE_MEDIA_BASE)).toBe("/template-media/media/apple.png");
    expect(directUrl({ url: "media/a.wav" }, TEMPLATE_MEDIA_BASE)).toBe("/template-media/media/a.wav");
    expect(directUrl("https://cdn.example/x.mp4", TEMPLATE_MEDIA_BASE)).toBe("https://cdn.example/x.mp4");
    expect(directUrl("/abs/x.png", TEMPLATE_MEDIA_BASE)).toBe("/abs/x.png");
  });

  it("refuses script URLs", () => {
    expect(directUrl("javascript:alert(1)", TEMPLATE_MEDIA_BASE)).toBeNull();
  });

  it("asks the API for asset URLs", async () => {
    const f = fakeFetch({ "GET /api/v1/assets/as_1/url": () => json(200, { url: "https://blob/signed" }) });
    const client = new ApiClient({ fetch: f.fetch, storage: memoryStorage(), locks: null });
    expect(await resolveMediaUrl({ asset: "as_1" }, client, TEMPLATE_MEDIA_BASE)).toBe("https://blob/signed");
    expect(f.calls[0].path).toBe("/api/v1/assets/as_1/url");
  });
});
