// The page's globals, as tsc sees them: Django's JavaScript catalog (/jsi18n/: gettext and get_format)
// and CS (static/clubscore/common.js, live.js), loaded by classic scripts before any page's own script.
// common.js's object is annotated with ClubscoreCommon, so tsc refuses any difference between the two.

declare function gettext(text: string): string;
declare function ngettext(singular: string, plural: string, n: number): string;
declare function pgettext(context: string, text: string): string;
declare function interpolate(text: string, values: Record<string, unknown> | unknown[], named?: boolean): string;

interface Window {
  gettext?: (text: string) => string;
  ngettext?: (singular: string, plural: string, n: number) => string;
  pgettext?: (context: string, text: string) => string;
  interpolate?: (text: string, values: Record<string, unknown> | unknown[], named?: boolean) => string;
  get_format?: (name: string) => string;
  Chart?: any;
}

/** An API answer (common.js's `api`): never throws; a lost network is `networkError`. */
interface ApiResult {
  ok: boolean;
  status: number;
  data: any;
  etag?: string | null;
  retryAfter?: number;
  networkError?: boolean;
  offlineCopy?: boolean;
}

/** The server's refusal (`error` in an answer's body). */
interface ApiError {
  code?: string;
  message: string;
  fields?: Record<string, string[]>;
  hand?: number;
}

type Child = Node | string | null | undefined;

/** A change as the live channel relays it (ledger/live.py, ledger/web/live.py): `prev` is the tag it
 * follows and `html` its page's fragment, when it carries them; `polled` marks the fallback poll's. */
interface LiveChange {
  tag?: string; version?: number; checks?: number; hands?: number; status?: string; session?: number;
  prev?: string; html?: string; polled?: boolean;
}

/** A player's rating as the statistics API gives it (stats.md): mu, sigma and the cautious ordinal. */
interface Rating { mu: number; sigma: number; ordinal: number }

/** common.js's shared helpers: tsc holds common.js's `window.CS` object to exactly this. */
interface ClubscoreCommon {
  ratingWords(r: Rating): string;
  ratingFigure(r: Rating): string;
  ratingSpan(r: Rating): HTMLElement;
  ratingRelation: string;
  api(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResult>;
  apiAll(url: string): Promise<ApiResult>;
  errorOf(res: ApiResult | null | undefined): ApiError | null;
  uuid4(): string;
  signed(n: number): string;
  signClass(n: number): string;
  money(cents: number, currency: string, style?: string): string;
  moneySpan(cents: number, currency: string, style?: string): HTMLElement;
  minorUnits(currency: string): number;
  localise(root?: ParentNode): void;
  el(tag: string, attrs?: Record<string, unknown>, children?: Child[]): HTMLElement;
  numSpan(n: number): HTMLElement;
  plain: { format(n: number): string };
  lang: string;
  percent(share: number, digits?: number): string;
  decimal(value: number | string, digits: number): string;
  decimalSign: string;
  day(iso: string): string;
}

/** live.js's addition to CS: one follower of the live channel, and its apply-or-read rule. */
interface ClubscoreLive {
  follow(opts: {
    events: string; tag: string; poll?: string; heartbeat?: number; read?(): void;
    onChange(change: LiveChange): void | Promise<void>; onStatus?(state: string): void;
  }): { seen(tag: string): void; stop(): void; readonly tag: string };
  decide(tag: string, change: LiveChange | null): 'skip' | 'apply' | 'read';
  decideVersion(version: number, change: LiveChange | null): 'skip' | 'apply' | 'read';
  parseTag(tag: string | undefined): [number, number] | null;
  oneAtATime(read: () => Promise<void>): (() => Promise<void>) & { busy(): boolean };
  fragmentPart(html: string, selector: string): Element | null;
}

interface ClubscoreGlobals extends ClubscoreCommon {
  live: ClubscoreLive;
}

interface Window { CS: ClubscoreGlobals }
