import htm from 'htm'
import { h } from 'preact'

/** Tagged templates instead of JSX: preact's `h` through htm, so the app needs no JSX compile. */
export const html = htm.bind(h)

/** What a component renders. */
export type View = ReturnType<typeof html>
