import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { describe, expect, it } from 'vitest'
import { CSV_OPTIONS } from './csv.ts'

describe('CSV_OPTIONS', () => {
  it('writes a BOM, a header row and CRLF line ends, and reads back what it wrote', () => {
    const rows = [{ name: 'Zoë "Z", PhD', note: 'two\nlines', admin: true }]
    const text = stringify(rows, { ...CSV_OPTIONS, columns: ['name', 'note', 'admin'] })
    expect(text.startsWith('\uFEFF"name","note","admin"\r\n')).toBe(true)
    expect(parse(text, { bom: true, columns: true })).toEqual([
      { name: 'Zoë "Z", PhD', note: 'two\nlines', admin: 'true' },
    ])
  })

  it.each(['=1+2', '+1', '-1', '@SUM(A1)', '\tcmd', '\rcmd'])(
    'neutralises a cell starting %j',
    (value) => {
      const text = stringify([{ v: value }], { ...CSV_OPTIONS, columns: ['v'] })
      const [row] = parse(text, { bom: true, columns: true }) as { v: string }[]
      expect(row?.v).toBe(`'${value}`)
    },
  )

  it('leaves numbers and ordinary text alone', () => {
    const text = stringify([{ v: 'Rust', n: -3 }], { ...CSV_OPTIONS, columns: ['v', 'n'] })
    expect(parse(text, { bom: true, columns: true })).toEqual([{ v: 'Rust', n: '-3' }])
  })
})
