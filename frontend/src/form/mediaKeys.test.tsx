import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, render } from "@testing-library/react";
import { AnnotationForm } from "./AnnotationForm";
import { FormProviders } from "./testing";
import type { Schema } from "../api";

const schema: Schema = {
  version: 1,
  inputs: [
    { name: "video", type: "video", label: "Clip" },
    { name: "prompt", type: "text", label: "Prompt" },
  ],
  questions: [
    { key: "ok", kind: "binary", label: "OK", required: true },
    { key: "prompt_ok", kind: "binary", label: "Matches prompt", inputs: ["prompt"] },
  ],
};

describe("media keys", () => {
  let play: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    play = vi.fn(() => Promise.resolve());
    vi.spyOn(HTMLMediaElement.prototype, "play").mockImplementation(play as never);
    vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  function setup() {
    render(
      <FormProviders>
        <AnnotationForm schema={schema} item={{ external_id: "x", inputs: { video: "media/clip.mp4", prompt: "hi" } }} onSubmit={() => {}} />
      </FormProviders>,
    );
    return document.querySelector("video")!;
  }

  it("p focuses the player, which steps frames and plays; Esc returns to the question", () => {
    const video = setup();
    fireEvent.keyDown(document.activeElement!, { key: "p" });
    const player = document.activeElement as HTMLElement;
    expect(player.dataset.mediaKeys).toBe("video");

    fireEvent.keyDown(player, { key: "." });
    expect(video.currentTime).toBeCloseTo(1 / 30, 5);
    fireEvent.keyDown(player, { key: " " });
    expect(play).toHaveBeenCalledTimes(1);

    fireEvent.keyDown(player, { key: "y" }); // answers still work from a player
    expect(document.querySelector('[data-question="ok"]')!.className).toContain("done");

    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(document.activeElement?.getAttribute("data-question")).toBeTruthy();
  });

  it("Space on a question plays the visible media; withheld media are skipped", () => {
    setup();
    fireEvent.keyDown(document.activeElement!, { key: " " });
    expect(play).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(document.activeElement!, { key: "j" });
    fireEvent.keyDown(document.activeElement!, { key: "p" });
    expect((document.activeElement as HTMLElement).dataset.mediaKeys).toBeUndefined();
  });
});
