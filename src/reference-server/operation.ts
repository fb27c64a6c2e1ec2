import type { Timing } from '../core/timing.ts';
import type { FaultName } from './faults.ts';
import type { PageTokens } from './page-token.ts';
import type { Store } from './store.ts';
import type { Body } from './validate.ts';
import type { VariantName } from './variants.ts';

export type Caller = 'full' | 'restricted';

export interface OperationContext {
  store: Store;
  tokens: PageTokens;
  /** Named faults this instance runs with (empty for the reference). */
  faults: ReadonlySet<FaultName>;
  /** Conformant alternative choices on open points (variants.ts); empty for the reference. */
  variants: ReadonlySet<VariantName>;
  caller: Caller;
  /** The windows of the stale-read and lost-update faults, on the clock the suite shares (core/timing.ts). */
  timing: Timing;
  /**
   * Every answer rendered afresh, never from the cached fragments: under the
   * fault probe (http-server.ts, FaultsAsked) each request must ask every
   * fault its own rendering would, not find a fragment another one rendered.
   */
  renderAfresh?: boolean;
}

export interface OperationResult {
  status: number;
  body?: unknown;
  /**
   * The body already serialised: JSON text, or its UTF-8 bytes in pieces sent
   * one after the other (hot paths point into cached fragments rather than copy them).
   */
  json?: string | readonly Buffer[];
}

/** Validates everything first, then changes state synchronously: a request is atomic. */
export type Operation = (body: Body, ctx: OperationContext) => OperationResult;

/** An operation that a fault makes answer later (a promise), to break atomicity on purpose. */
export type OperationMaybeLater = (body: Body, ctx: OperationContext) => OperationResult | Promise<OperationResult>;

export const REDACTED = Object.freeze({ redacted: 'forbidden' });
