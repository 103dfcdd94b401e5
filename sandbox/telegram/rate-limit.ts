// Telegram's flood limits for sending (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this):
// about 30 messages per second overall and 20 messages per minute into one group or
// channel. Beyond them the API answers 429 "Too Many Requests: retry after N" with
// `parameters.retry_after`. Off unless the server is started with `rateLimits`.

import { tooManyRequests } from "./errors.ts";

export interface RateLimits {
  /** Messages per second for the whole bot (Telegram: ~30). */
  perSecond?: number;
  /** Messages per minute into one channel (Telegram: 20). */
  perChannelPerMinute?: number;
}

export class RateLimiter {
  private readonly perSecond: number;
  private readonly perChannelPerMinute: number;
  private sent: number[] = [];
  private sentPerChannel = new Map<number, number[]>();

  constructor(limits: RateLimits) {
    this.perSecond = limits.perSecond ?? 30;
    this.perChannelPerMinute = limits.perChannelPerMinute ?? 20;
  }

  /**
   * Counts `count` messages (an album counts each of its messages), or throws 429 when
   * they would exceed a limit; nothing is counted then.
   */
  take(chatId: number, isChannel: boolean, nowMs: number, count = 1) {
    this.sent = within(this.sent, nowMs, 1_000);
    if (this.sent.length + count > this.perSecond) {
      throw tooManyRequests(retryAfter(this.sent[0] ?? nowMs, nowMs, 1_000));
    }
    if (isChannel) {
      const channel = within(this.sentPerChannel.get(chatId) ?? [], nowMs, 60_000);
      this.sentPerChannel.set(chatId, channel);
      if (channel.length + count > this.perChannelPerMinute) {
        throw tooManyRequests(retryAfter(channel[0] ?? nowMs, nowMs, 60_000));
      }
      for (let i = 0; i < count; i++) channel.push(nowMs);
    }
    for (let i = 0; i < count; i++) this.sent.push(nowMs);
  }
}

const within = (times: number[], nowMs: number, windowMs: number) =>
  times.filter((time) => time > nowMs - windowMs);

/** Whole seconds until the oldest message in the window leaves it (at least 1, like Telegram). */
const retryAfter = (oldest: number, nowMs: number, windowMs: number) =>
  Math.max(1, Math.ceil((oldest + windowMs - nowMs) / 1000));
