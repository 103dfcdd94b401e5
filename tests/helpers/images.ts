/*
 * Real image files made in the tests: PNGs by a tiny encoder (zlib from node), JPEG and
 * WebP by Chromium's own encoders through a canvas.
 */
import { deflateSync } from "node:zlib";
import type { Browser } from "playwright-core";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array) {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A valid RGB PNG of the given size filled with one colour. */
export function makePng(width: number, height: number, rgb: [number, number, number] = [40, 120, 200]): Uint8Array<ArrayBuffer> {
  const row = new Uint8Array(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = new Uint8Array(row.length * height);
  for (let y = 0; y < height; y++) raw.set(row, y * row.length);
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", new Uint8Array(deflateSync(raw))),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
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
