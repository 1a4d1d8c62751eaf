import fc from 'fast-check'

/** The part of JSON Schema 2020-12 that the API's request schemas use. */
export type JsonSchema = {
  type?: string | string[]
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  $ref?: string
  examples?: unknown[]
  /** Only `if` one property has a `const`, `then` these properties are required. */
  if?: { properties: Record<string, { const: unknown }> }
  then?: { properties?: Record<string, JsonSchema>; required?: string[] }
}

/** Whether `value` meets the schema's `if` (a const on one property, the only form used). */
function meetsIf(schema: JsonSchema, value: Record<string, unknown>): boolean {
  return Object.entries(schema.if?.properties ?? {}).every(([name, p]) => value[name] === p.const)
}

/** Strings without the characters a URL path or a header cannot carry as they are. */
const TEXT = fc.string({ unit: 'grapheme-composite', maxLength: 40 })

/**
 * Values that `schema` accepts. Strings with a `pattern` come from the
 * pattern; lengths, bounds, enums and required properties are kept; optional
 * properties are sometimes left out. A schema with `examples` gives its
 * examples: the document adds them where validity is more than a schema can
 * say (a point on a curve, a period of whole months).
 */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.examples && schema.examples.length > 0) return fc.constantFrom(...schema.examples)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  if ('const' in schema) return fc.constant(schema.const)
  const choices = schema.anyOf ?? schema.oneOf
  if (choices) return fc.oneof(...choices.map(validValue))
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  if (types.length > 1) return fc.oneof(...types.map((type) => validValue({ ...schema, type })))
  switch (types[0]) {
    case 'string':
      return validString(schema)
    case 'integer':
      return fc.integer({
        min: Math.ceil(schema.minimum ?? (schema.exclusiveMinimum ?? -1e6 - 1) + 1),
        max: Math.floor(schema.maximum ?? (schema.exclusiveMaximum ?? 1e6 + 1) - 1),
      })
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(validValue(schema.items ?? {}), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, (schema.minItems ?? 0) + 4),
      })
    case 'object':
      return validObject(schema)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0
  const max = Math.min(schema.maxLength ?? 60, min + 60)
  const fits = (s: string) => [...s].length >= min && [...s].length <= max
  if (schema.format === 'uuid') return fc.uuid()
  if (schema.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString())
  }
  if (schema.format === 'date') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10))
  }
  if (schema.pattern) {
    // The pattern decides the length (the 60-character cap above is for free text only).
    const within = (s: string) =>
      [...s].length >= min && [...s].length <= (schema.maxLength ?? Number.POSITIVE_INFINITY)
    return fc.stringMatching(new RegExp(schema.pattern, 'u')).filter(within)
  }
  return fc.string({ unit: 'grapheme-composite', minLength: min, maxLength: max }).filter(fits)
}

function validObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {}
  const required = new Set(schema.required ?? [])
  const record: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, property] of Object.entries(properties)) record[name] = validValue(property)
  const base = fc.record(record, {
    requiredKeys: Object.keys(properties).filter((name) => required.has(name)),
  })
  const then = schema.then
  if (!schema.if || !then) return base
  // if/then: where the condition holds, the properties `then` requires, as `then` says.
  return base.chain((value) => {
    if (!meetsIf(schema, value)) return fc.constant(value)
    const extra: Record<string, fc.Arbitrary<unknown>> = {}
    for (const name of then.required ?? []) {
      extra[name] = validValue(then.properties?.[name] ?? properties[name] ?? {})
    }
    return fc.record(extra).map((more) => ({ ...value, ...more }))
  })
}

/** How a value was made invalid, for the failure report. */
export type Breakage = { value: unknown; how: string }

/**
 * Values that `schema` refuses: a wrong type, a required property left out,
 * a string or array beyond its bounds, a value outside an enum, a number
 * outside its range. Answers undefined when the schema accepts anything.
 */
export function invalidValue(schema: JsonSchema): fc.Arbitrary<Breakage> | undefined {
  const ways: fc.Arbitrary<Breakage>[] = []
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  if (types.length > 0 && !schema.anyOf && !schema.oneOf) {
    const jsonType = (v: unknown) =>
      Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v
    const accepts = (v: unknown) =>
      types.includes(jsonType(v)) || (types.includes('integer') && Number.isInteger(v))
    for (const value of [12345, 'not the right type', { not: 'this' }, [1, 2], true]) {
      if (!accepts(value)) ways.push(fc.constant({ value, how: `a ${jsonType(value)}` }))
    }
  }
  if (schema.enum?.every((v) => typeof v === 'string')) {
    ways.push(fc.constant({ value: 'not-one-of-them', how: 'a value outside the enum' }))
  }
  if (types.includes('string') && !schema.enum) {
    if (schema.maxLength !== undefined && schema.maxLength < 10_000) {
      ways.push(
        fc.constant({ value: 'x'.repeat(schema.maxLength + 1), how: 'a string one too long' }),
      )
    }
    if ((schema.minLength ?? 0) > 0 && !schema.pattern) {
      ways.push(fc.constant({ value: '', how: 'an empty string' }))
    }
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern, 'u')
      const misfit = ['   ', 'no match ✗', '!', '\u00a0'].find(
        (v) =>
          !pattern.test(v) &&
          [...v].length >= (schema.minLength ?? 0) &&
          [...v].length <= (schema.maxLength ?? 255),
      )
      if (misfit !== undefined) {
        ways.push(fc.constant({ value: misfit, how: `a string not matching ${schema.pattern}` }))
      }
    }
  }
  if ((types.includes('integer') || types.includes('number')) && !schema.enum) {
    if (schema.maximum !== undefined) {
      ways.push(fc.constant({ value: schema.maximum + 1, how: 'a number above the maximum' }))
    }
    if (schema.minimum !== undefined) {
      ways.push(fc.constant({ value: schema.minimum - 1, how: 'a number below the minimum' }))
    }
  }
  if (types.includes('array') && schema.maxItems !== undefined && schema.items) {
    const item = validValue(schema.items)
    ways.push(
      fc
        .array(item, { minLength: schema.maxItems + 1, maxLength: schema.maxItems + 1 })
        .map((value) => ({ value, how: 'one item too many' })),
    )
  }
  if (types.includes('object') && schema.properties) {
    const valid = validObject(schema)
    for (const name of schema.required ?? []) {
      ways.push(
        valid.map((value) => {
          const { [name]: _left, ...rest } = value
          return { value: rest, how: `required "${name}" left out` }
        }),
      )
    }
    if (schema.if && schema.then?.required) {
      const thenRequired = schema.then.required
      ways.push(
        valid
          .filter((value) => meetsIf(schema, value))
          .map((value) => {
            const rest = Object.fromEntries(
              Object.entries(value).filter(([name]) => !thenRequired.includes(name)),
            )
            return { value: rest, how: `${thenRequired.join(', ')} left out where required` }
          }),
      )
    }
    if (schema.additionalProperties === false) {
      ways.push(
        valid.map((value) => ({
          value: { ...value, notInTheSchema: 1 },
          how: 'an unknown property',
        })),
      )
    }
    for (const [name, property] of Object.entries(schema.properties)) {
      const broken = invalidValue(property)
      if (!broken) continue
      ways.push(
        fc.tuple(valid, broken).map(([value, b]) => ({
          value: { ...value, [name]: b.value },
          how: `"${name}": ${b.how}`,
        })),
      )
    }
  }
  return ways.length > 0 ? fc.oneof(...ways) : undefined
}

/** A path parameter value: any text a client could put there, percent-encoded. */
export const pathText = TEXT.filter((s) => s !== '' && s !== '.' && s !== '..')
