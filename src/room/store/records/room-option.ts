import { findOption } from '../../../options/core/option-catalog.ts'
import { readStored } from '../../../options/core/option-group.ts'
import type { RecordTypeApplier } from '../../../records/store/applier.ts'
import { readSetting, writeSetting } from '../../../store/project-table.ts'
import { isTeamOption, teamOptionGroups } from '../../core/rule-catalog.ts'
import type { roomOptionRecordType } from '../../protocol/records/room-option.ts'
import { isNewerOptionChange, readOptionChange, writeOptionChange } from '../option-change-table.ts'

/**
 * A team option set on another machine: written into its group in `setting` when newer than the
 * change this replica has (by set time, then record id), so every replica ends with the same value
 * whatever order the records come in. An option this sangam does not know (a newer one's), one not
 * shared with the team, or a value its type refuses changes nothing.
 */
export const roomOptionApplier: RecordTypeApplier<typeof roomOptionRecordType> = {
  type: 'room.option',
  counts: 'roomRecords',
  open: (db) => ({
    apply(record) {
      const { name, value, setAt } = record.payload
      const found = findOption(name, teamOptionGroups)
      if (!found.ok || !isTeamOption(found.found.fullName)) return false
      const checked = found.found.option.type.check(value)
      if (!checked.ok) return false
      const change = { name: found.found.fullName, setAt, recordId: record.id }
      if (!isNewerOptionChange(change, readOptionChange(db, change.name))) return false
      const { group, field } = found.found
      const stored = readStored(group, readSetting(db, group.key) ?? {})
      writeSetting(db, group.key, { ...(stored.ok ? stored.value : {}), [field]: checked.value })
      writeOptionChange(db, change)
      return true
    },
  }),
}
