import { createHash } from 'node:crypto'

/** Where the shell maps the browser libraries' bare names; `static-files.ts` serves these paths. */
export const importMap = {
  imports: {
    preact: '/vendor/preact.mjs',
    'preact/hooks': '/vendor/preact-hooks.mjs',
    htm: '/vendor/htm.mjs',
    uplot: '/vendor/uplot.mjs',
  },
} as const

const importMapScript = JSON.stringify(importMap)

/** The shell's one inline script, allowed by the Content-Security-Policy by its hash and nothing else. */
const importMapHash = createHash('sha256').update(importMapScript).digest('base64')

/**
 * The one HTML page, for `/` and every path the client routes: it loads the client's stylesheet
 * and module from `dist/web/` (`/app/`), with the libraries by their bare names.
 */
export const htmlShell = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>sangam</title>
<link rel="stylesheet" href="/vendor/uplot.css">
<link rel="stylesheet" href="/app/style.css">
<script type="importmap">${importMapScript}</script>
<script type="module" src="/app/main.js"></script>
</head>
<body>
<div id="app"></div>
<noscript>The sangam dashboard needs JavaScript.</noscript>
</body>
</html>
`

/**
 * The policy every answer carries: scripts only from this server (and the import map by its
 * hash), connections only to it, no plugins, no framing, no base tag. Styles may be inline: the
 * chart library and the components set them.
 */
export const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'sha256-${importMapHash}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')
