// Readable names of items. A criterion's unit has the external id
// `<item>#criterion-<criterion id>` (unique and stable, so exports and
// re-imports can rely on it); people read it as "<item> · criterion <short>".

const CRITERION_UNIT = /^(.+)#criterion-([0-9a-f-]+)$/i;

/**
 * The name to show for an item's external id: a criterion's unit as its item
 * and the criterion (its number when the caller knows it, else the last
 * characters of the criterion's id, which are random); any other id as it is.
 */
export function unitName(externalId: string, criterionNumber?: number): string {
  const m = CRITERION_UNIT.exec(externalId);
  if (!m) return externalId;
  const id = m[2].replace(/-/g, "");
  return `${m[1]} · criterion ${criterionNumber ?? id.slice(-4)}`;
}
