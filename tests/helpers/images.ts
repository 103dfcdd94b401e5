/*
 * Real image files made in the tests: PNGs by a tiny encoder (zlib from node), JPEG and
 * WebP by Chromium's own encoders through a canvas.
 */
import { makePng as encodePng } from "../../sandbox/telegram/images.ts";
import type { Browser } from "playwright-core";

/** A valid RGB PNG of the given size filled with one colour (the Telegram double's encoder). */
export function makePng(width: number, height: number, rgb?: [number, number, number]): Uint8Array<ArrayBuffer> {
  return encodePng(width, height, rgb) as Uint8Array<ArrayBuffer>;
}

/** An image encoded by Chromium (image/jpeg or image/webp) of the given size. */
export async function makeWithChromium(browser: Browser, type: "image/jpeg" | "image/webp", width: number, height: number) {
  const page = await browser.newPage();
  try {
    const base64 = await page.evaluate(([t, w, h]) => {
      const canvas = document.createElement("canvas");
      canvas.width = w as number;
      canvas.height = h as number;
      const ctx = canvas.getContext("2d")!;
      ctx.fillStyle = "#c33";
      ctx.fillRect(0, 0, w as number, h as number);
      ctx.fillStyle = "#3c3";
      ctx.fillRect(0, 0, (w as number) / 2, (h as number) / 2);
      return canvas.toDataURL(t as string, 0.9).split(",")[1];
    }, [type, width, height]);
    return Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
  } finally {
    await page.close();
  }
}

/** Uploads a small PNG into the project as its owner would; answers its /api/uploads/ URL. */
export async function uploadedImage(
  stack: { app: { request(path: string, init: RequestInit): Response | Promise<Response> } },
  projectId: number,
  cookie: string,
  size: [number, number] = [32, 24],
): Promise<string> {
  const form = new FormData();
  form.append("image", new File([makePng(...size)], "image.png", { type: "image/png" }));
  const res = await stack.app.request(`/api/projects/${projectId}/upload-image`, { method: "POST", body: form, headers: { cookie } });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { imageUrl: string }).imageUrl;
}
