import { TEMPLATE_MEDIA_BASE, type MediaBase } from "../../../media/resolve";

/**
 * Where relative media paths of project items resolve. note: items imported
 * with paths such as "media/apple.png" point at the bundled sample media
 * (served under /template-media/); uploaded media use {asset: id} instead.
 */
export const PROJECT_MEDIA_BASE: MediaBase = TEMPLATE_MEDIA_BASE;
