/** One transcript file of `sangam doctor --json`, as the end-to-end tests read it. */
export interface DoctorFile {
  path: string
  vendor: string
  lines: number
  captured: number
  skipped: number
  unknown: number
  unparseable: number
  events: number
  pendingBytes: number
  unknownShapes: { recordType: string; count: number }[]
}
