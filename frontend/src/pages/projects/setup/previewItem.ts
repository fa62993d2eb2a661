// A stand-in item for previewing a schema that has no samples yet: every
// input gets a placeholder, media from the sample files shipped with the
// templates (served under /template-media/).
import type { Input, Item, Schema } from "../../../api";

const SAMPLE_MEDIA: Record<string, unknown> = {
  image: "media/apple.png",
  image_list: ["media/apple.png", "media/boats.png"],
  video: "media/t2v_waves.mp4",
  audio: "media/speech_fox.wav",
  model3d: "media/cube.glb",
};

function valueFor(input: Input): unknown {
  const label = input.label || input.name;
  switch (input.type) {
    case "text":
    case "markdown":
      return `(${label} of the item)`;
    case "json":
      return { example: label };
    case "candidates": {
      const n = Math.max(2, Number((input as { count?: number }).count) || 2);
      return Array.from({ length: n }, (_, i) => ({ id: `c${i + 1}`, type: "text", value: `(output ${i + 1})` }));
    }
    default:
      return SAMPLE_MEDIA[input.type] ?? `(${label})`;
  }
}

/** An item with a placeholder for each input of the schema. */
export function previewItem(schema: Schema): Item {
  return { external_id: "preview", inputs: Object.fromEntries((schema.inputs ?? []).map((i) => [i.name, valueFor(i)])) };
}
