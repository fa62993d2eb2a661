// One place that turns a media reference from an item into a URL the
// browser can load. Asset ids go through the API (short-lived signed URLs);
// relative paths resolve against a base that the page provides (template
// samples live under /template-media/).
import { createContext, useContext } from "react";
import { useQuery } from "@tanstack/react-query";
import { useApiClient, type ApiClient } from "../api";
import type { MediaRef } from "../api";
import i18n from "../i18n";

export interface MediaBase {
  /** Prefix for relative paths such as "media/apple.png". */
  relativeBase: string;
}

export const MediaBaseContext = createContext<MediaBase>({ relativeBase: "/" });

/** The sample-media base used by the template gallery. */
export const TEMPLATE_MEDIA_BASE: MediaBase = { relativeBase: "/template-media/" };

/** The asset id of a reference, when it names one. */
export function assetId(ref: MediaRef | null | undefined): string | null {
  return ref && typeof ref === "object" && ref.asset ? ref.asset : null;
}

/** The URL of a URL or path reference (no network), or null for assets and junk. */
export function directUrl(ref: MediaRef | null | undefined, base: MediaBase): string | null {
  const raw = typeof ref === "string" ? ref : ref && typeof ref === "object" ? ref.url : undefined;
  if (!raw || typeof raw !== "string") return null;
  if (/^(https?:|blob:|data:)/i.test(raw) || raw.startsWith("/")) return raw;
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return null; // javascript: and other schemes
  return base.relativeBase.replace(/\/?$/, "/") + raw.replace(/^\.\//, "");
}

/** Resolves any reference to a URL; asset ids ask GET /api/v1/assets/:id/url. */
export async function resolveMediaUrl(ref: MediaRef, client: ApiClient, base: MediaBase): Promise<string> {
  const id = assetId(ref);
  if (id) {
    const { url } = await client.get("/assets/{aid}/url", { path: { aid: id } });
    return url;
  }
  const url = directUrl(ref, base);
  if (!url) throw new Error(i18n.t("media.cannotShow"));
  return url;
}

/** React hook form of resolveMediaUrl, cached per asset for a few minutes. */
export function useMediaUrl(ref: MediaRef | null | undefined): { url: string | null; error: unknown; loading: boolean } {
  const base = useContext(MediaBaseContext);
  const client = useApiClient();
  const id = assetId(ref);
  const q = useQuery({
    queryKey: ["asset-url", id],
    queryFn: () => resolveMediaUrl(ref as MediaRef, client, base),
    enabled: !!id,
    staleTime: 4 * 60_000,
  });
  if (!id) {
    const url = directUrl(ref, base);
    return { url, error: url ? null : new Error(i18n.t("media.cannotShow")), loading: false };
  }
  return { url: q.data ?? null, error: q.error, loading: q.isPending };
}
