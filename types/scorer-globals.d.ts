// The page's globals the scorer's modules use, as tsc sees them: Django's JavaScript catalog (/jsi18n/)
// and CS (static/clubscore/common.js, live.js), loaded by classic scripts before the modules.

declare function gettext(text: string): string;
declare function ngettext(singular: string, plural: string, n: number): string;
declare function pgettext(context: string, text: string): string;
declare function interpolate(text: string, values: Record<string, unknown>, named: true): string;

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

interface LiveChange { tag?: string; version?: number; checks?: number }

interface ClubscoreGlobals {
  api(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResult>;
  apiAll(url: string): Promise<ApiResult>;
  errorOf(res: ApiResult): ApiError | null;
  uuid4(): string;
  el(tag: string, attrs?: Record<string, unknown>, children?: Child[]): HTMLElement;
  numSpan(n: number): HTMLElement;
  plain: { format(n: number): string };
  live: {
    follow(opts: { events: string; tag: string; poll?: string; onChange(change: LiveChange): void | Promise<void> }): { seen(tag: string): void };
  };
}

interface Window { CS: ClubscoreGlobals }
