/** How much an alert needs attention, most first. Without zod: the hooks' bundle derives alerts. */
export const alertSeverities = ['critical', 'attention', 'warning'] as const
export type AlertSeverity = (typeof alertSeverities)[number]
