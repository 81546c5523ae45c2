// The page's globals, as tsc sees them: Django's JavaScript catalog (/jsi18n/: gettext and get_format)
// and CS (static/clubscore/common.js, live.js), loaded by classic scripts before any page's own script.
// The catalog is Django's, declared here by hand; CS's types are read from common.js and live.js.

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

/** window.CS: common.js's object and live.js's `live`, each type read from its code (ClubscoreCommon in
 * common.js, ClubscoreLive in live.js: the return of the function that builds it), so no description
 * here can drift from them. */
interface Window { CS: ClubscoreCommon & { live: ClubscoreLive } }
