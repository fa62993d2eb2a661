// Preloading the media of a freshly claimed item, so it shows at once:
// asset URLs are resolved into the same cache the viewers read, and images
// start downloading before React renders them.
import type { QueryClient } from "@tanstack/react-query";
import type { ApiClient } from "../../../api";
import type { Claim } from "../../../api/workflowTypes";
import { asCandidates, type InputType, type MediaRef } from "../../../form/schema";
import { assetId, directUrl, resolveMediaUrl, type MediaBase } from "../../../media/resolve";

export interface MediaToLoad {
  type: InputType;
  ref: MediaRef;
}

const MEDIA: InputType[] = ["image", "image_list", "video", "audio", "model3d"];

/** Every media reference in a claim's visible inputs, candidates included. */
export function claimMedia(claim: Claim): MediaToLoad[] {
  const out: MediaToLoad[] = [];
  const add = (type: InputType, v: unknown) => {
    if (v == null) return;
    if (type === "image_list") {
      (Array.isArray(v) ? v : [v]).forEach((r) => add("image", r));
    } else if (MEDIA.includes(type) && (typeof v === "string" || typeof v === "object")) {
      out.push({ type, ref: v as MediaRef });
    }
  };
  const inputs = claim.item.item.inputs ?? {};
  for (const inp of claim.item.schema.inputs ?? []) {
    if (inp.hidden) continue;
    const v = inputs[inp.name];
    if (inp.type === "candidates") asCandidates(v).forEach((c) => add(c.type, c.value));
    else add(inp.type, v);
  }
  return out;
}

const hinted = new Set<string>();

function hint(url: string, as: "image" | "video" | "audio" | "fetch") {
  if (as === "image") {
    const img = new Image();
    img.decoding = "async";
    img.src = url;
    return;
  }
  if (hinted.has(url) || typeof document === "undefined") return;
  hinted.add(url);
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = as;
  link.href = url;
  document.head.appendChild(link);
}

/**
 * Resolves and starts loading a claim's media. Resolves when the asset URLs
 * are known (or after `capMs`, whichever is first) so rendering never waits
 * long on it.
 */
export async function preloadClaim(claim: Claim, client: ApiClient, queries: QueryClient, base: MediaBase, capMs = 250) {
  const jobs = claimMedia(claim).map(async ({ type, ref }) => {
    const id = assetId(ref);
    const url = id
      ? await queries.fetchQuery({
          queryKey: ["asset-url", id],
          queryFn: () => resolveMediaUrl(ref, client, base),
          staleTime: 4 * 60_000,
        })
      : directUrl(ref, base);
    if (!url) return;
    hint(url, type === "image" ? "image" : type === "video" ? "video" : type === "audio" ? "audio" : "fetch");
  });
  const all = Promise.allSettled(jobs);
  await Promise.race([all, new Promise((r) => setTimeout(r, capMs))]);
}
