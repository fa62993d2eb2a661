// Preloading the media of a freshly claimed item, so it shows at once:
// asset URLs are resolved into the same cache the viewers read, and images
// start downloading before React renders them.
import type { QueryClient } from "@tanstack/react-query";
import type { ApiClient, Claim, InputType, MediaRef } from "../../../api";
import { asCandidates } from "../../../form/schema";
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
/** Images loaded ahead, kept referenced so their decoded pixels stay cached until shown; oldest dropped first. */
const images = new Map<string, HTMLImageElement>();
const KEEP_IMAGES = 16;

/** Starts loading an image and resolves once it is decoded (or failed). */
function loadImage(url: string): Promise<void> {
  let img = images.get(url);
  if (!img) {
    img = new Image();
    img.decoding = "async";
    img.src = url;
    images.set(url, img);
    while (images.size > KEEP_IMAGES) images.delete(images.keys().next().value as string);
  }
  return typeof img.decode === "function" ? img.decode().catch(() => {}) : Promise.resolve();
}

/** Video and audio elements loading ahead (their first bytes and duration), kept referenced until shown; oldest dropped first. */
const players = new Map<string, HTMLMediaElement>();
const KEEP_PLAYERS = 4;

/**
 * Starts loading a medium. note: not `<link rel=preload>`, which Chromium
 * refuses for video and audio (a console warning) and reports as unused when
 * the item loaded ahead is shown later than a few seconds.
 */
function hint(url: string, as: "image" | "video" | "audio" | "fetch"): Promise<void> {
  if (as === "image") return loadImage(url);
  if (hinted.has(url) || typeof document === "undefined") return Promise.resolve();
  hinted.add(url);
  if (as === "fetch") {
    void fetch(url, { credentials: "same-origin" }).then((r) => r.blob(), () => undefined);
    return Promise.resolve();
  }
  const player = document.createElement(as);
  player.preload = "metadata";
  player.muted = true;
  player.src = url;
  players.set(url, player);
  while (players.size > KEEP_PLAYERS) {
    const oldest = players.keys().next().value as string;
    players.get(oldest)?.removeAttribute("src");
    players.delete(oldest);
  }
  return Promise.resolve();
}

export interface PreloadOptions {
  /** Resolve after at most this long, whatever is still loading. */
  capMs?: number;
  /** Also wait until images are decoded (for an item loaded ahead, off the critical path). */
  decode?: boolean;
}

/**
 * Resolves and starts loading a claim's media. Resolves when the asset URLs
 * are known — with `decode`, when its images are decoded — or after `capMs`,
 * whichever is first, so rendering never waits long on it.
 */
export async function preloadClaim(claim: Claim, client: ApiClient, queries: QueryClient, base: MediaBase, { capMs = 250, decode = false }: PreloadOptions = {}) {
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
    const loading = hint(url, type === "image" ? "image" : type === "video" ? "video" : type === "audio" ? "audio" : "fetch");
    if (decode) await loading;
  });
  const all = Promise.allSettled(jobs);
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([all, new Promise((r) => (timer = setTimeout(r, capMs)))]);
  clearTimeout(timer);
}
