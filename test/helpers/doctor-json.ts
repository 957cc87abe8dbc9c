import assert from 'node:assert/strict'

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

/** `sangam doctor --json`: its sections, the capture section listing the files read. */
export interface DoctorJson {
  sections: { name: string; files?: DoctorFile[] }[]
}

/**
 * The one file doctor lists for `vendor`, asserted whole: every line captured or skipped, none
 * unknown or unparseable. What a test expects of its events it asserts itself.
 */
export function accountedCaptureFile(doctor: DoctorJson, vendor: string): DoctorFile {
  const files = doctor.sections.find((section) => section.name === 'capture')?.files ?? []
  const [file, ...more] = files.filter((each) => each.vendor === vendor)
  assert.ok(file !== undefined && more.length === 0, `one ${vendor} file: ${JSON.stringify(files)}`)
  assert.equal(
    file.lines,
    file.captured + file.skipped,
    `every line is accounted for: ${JSON.stringify(file)}`,
  )
  assert.deepEqual([file.unknown, file.unparseable], [0, 0], JSON.stringify(file))
  return file
}
