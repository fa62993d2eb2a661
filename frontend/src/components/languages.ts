/** Splits a comma- or space-separated list of language tags ("en, zh-Hans"); the server checks and canonicalises them. */
export function splitLanguages(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter((t) => t !== "");
}

/** A member's or item's languages as text: the tags, or `none` when there are none. */
export function languagesText(tags: readonly string[] | null | undefined, none: string): string {
  return tags && tags.length > 0 ? tags.join(", ") : none;
}
