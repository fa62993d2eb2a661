import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { InputsPane } from "./InputsPane";
import { FormProviders } from "../testing";
import { mediaRefs, refsAsText } from "./mediaRefs";
import type { Item, Schema } from "../../api";

const schema: Schema = {
  version: 1,
  inputs: [
    { name: "question", type: "text", label: "Task query" },
    { name: "query_images", type: "image_list", label: "Query images", optional: true },
    { name: "query_video", type: "video", label: "Query video", optional: true },
    { name: "note", type: "markdown", label: "Note", optional: true },
  ],
  questions: [{ key: "ok", kind: "binary", label: "OK", required: true }],
};
const item: Item = {
  external_id: "x",
  inputs: { question: "Describe the object in {image#2} and compare it with {image#1}; ignore {video#3}.", query_images: ["media/a.png", "media/b.png"], note: "See {image#1}." },
};

describe("media references", () => {
  it("count images over image inputs in schema order", () => {
    const refs = mediaRefs(schema, item);
    expect(refs.image?.map((r) => r.label)).toEqual(["Query images, 1", "Query images, 2"]);
    expect(refs.video).toBeUndefined();
    expect(refsAsText("See {image#1} and {audio#1}.", refs)).toBe("See [Image 1: Query images, 1] and [Audio 1].");
  });

  it("render as chips in text, never as the raw placeholder", () => {
    render(
      <FormProviders>
        <InputsPane schema={schema} item={item} answers={{}} />
      </FormProviders>,
    );
    const pane = document.querySelector(".inputs-pane")!;
    expect(pane.textContent).not.toMatch(/\{(image|video)#\d\}/);
    const chips = [...pane.querySelectorAll(".media-ref")];
    expect(chips.map((c) => c.textContent)).toEqual(["Image 2", "Image 1", "Video 3"]);
    expect(chips[2].classList.contains("missing")).toBe(true);
    expect(chips[0].querySelector("img")?.getAttribute("src")).toBe("/media/b.png");
    expect(screen.getByText(/See \[Image 1: Query images, 1\]/)).toBeTruthy();
  });
});
