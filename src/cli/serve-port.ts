/** The port `sangam serve` listens on unless `--port` says otherwise (wrangler's default, too). */
export const defaultServePort = 8787
