/*
 * A Telegram message's text cut at its entities' edges, each piece with the entities that
 * cover it (they may nest), for the sandbox to draw it as a Telegram client does. Offsets
 * are UTF-16 units, as JavaScript's strings count.
 */
import type { SandboxEntity } from "../../../contract/sandbox.ts";

export type TextPiece = { text: string; entities: SandboxEntity[] };

export function textPieces(text: string, entities: readonly SandboxEntity[]): TextPiece[] {
  const edges = new Set([0, text.length]);
  for (const entity of entities) {
    edges.add(Math.min(entity.offset, text.length));
    edges.add(Math.min(entity.offset + entity.length, text.length));
  }
  const sorted = [...edges].sort((a, b) => a - b);
  const pieces: TextPiece[] = [];
  for (let i = 0; i < sorted.length - 1; i++) {
    const [start, end] = [sorted[i], sorted[i + 1]];
    const covering = entities.filter((entity) => entity.offset <= start && entity.offset + entity.length >= end);
    pieces.push({ text: text.slice(start, end), entities: covering });
  }
  return pieces;
}

/** Consecutive messages of one album become one group; any other message stands alone. */
export function albumGroups<M extends { albumId?: string }>(messages: readonly M[]): M[][] {
  const groups: M[][] = [];
  for (const message of messages) {
    const last = groups.at(-1);
    if (last && message.albumId && last[0].albumId === message.albumId) last.push(message);
    else groups.push([message]);
  }
  return groups;
}
