// The release form's choices and the request they make, kept apart from the
// component so they can be tested on their own.
import type { ReleaseRequest } from "../../../api/releases";

export type SplitMode = "one" | "key" | "ratio";

export interface ReleaseChoices {
  name: string;
  formats: ReleaseRequest["formats"];
  includeDropped: boolean;
  split: SplitMode;
  splitName: string;
  splitKey: string;
  ratios: string;
  clusterKey: string;
  raw: boolean;
  media: "reference" | "copy";
  filter: string;
  ties: boolean;
}

export const defaultChoices: ReleaseChoices = {
  name: "",
  formats: ["jsonl", "hf"],
  includeDropped: false,
  split: "one",
  splitName: "test",
  splitKey: "",
  ratios: "train=0.8,test=0.2",
  clusterKey: "",
  raw: false,
  media: "copy",
  filter: "",
  ties: true,
};

/**
 * The request for the choices: only options that differ from the server's
 * defaults are sent, so the manifest records what was asked. The filter is
 * "key=v1,v2" per line.
 */
export function releaseRequest(c: ReleaseChoices): ReleaseRequest {
  const options: Record<string, unknown> = {};
  if (c.includeDropped) options.include_dropped = true;
  if (c.raw) options.raw = true;
  if (c.media === "reference") options.media = "reference";
  if (c.split === "one" && c.splitName.trim() && c.splitName.trim() !== "test") options.split = c.splitName.trim();
  if (c.split === "key") options.split_key = c.splitKey.trim();
  if (c.split === "ratio") {
    options.split_ratios = c.ratios.trim();
    if (c.clusterKey.trim()) options.cluster_key = c.clusterKey.trim();
  }
  for (const line of c.filter.split("\n")) {
    const [key, ...rest] = line.split("=");
    if (key.trim() && rest.length) options[`filter.${key.trim()}`] = rest.join("=").trim();
  }
  if (c.formats.includes("omnireward") && !c.ties) options.ties = false;
  return { name: c.name.trim(), formats: c.formats, options };
}

/** How long the links of a release by reference to uploaded media work, from when it is asked for. */
export const MEDIA_LINK_DAYS = 7;

/** When the links of a release by reference asked for at `now` stop working. */
export function linksExpireAt(now: Date): Date {
  return new Date(now.getTime() + MEDIA_LINK_DAYS * 24 * 3600 * 1000);
}

/** Human sizes for file and release sizes. */
export function formatBytes(n: number): string {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(1)} GiB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KiB`;
  return `${n} B`;
}
