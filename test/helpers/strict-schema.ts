import { z } from 'zod'

/**
 * The same schema with every object strict, all the way down: an answer with a field its view does
 * not declare fails, where zod's plain objects would drop it. For checking answers against their
 * one declared shape (test/answer-views.test.ts, test/answer-docs.test.ts).
 */
export function strictSchema(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodObject)
    return z.strictObject(
      Object.fromEntries(
        Object.entries(schema.shape as Record<string, z.ZodType>).map(([key, field]) => [
          key,
          strictSchema(field),
        ]),
      ),
    )
  if (schema instanceof z.ZodArray) return z.array(strictSchema(schema.element as z.ZodType))
  if (schema instanceof z.ZodNullable) return strictSchema(schema.unwrap() as z.ZodType).nullable()
  if (schema instanceof z.ZodOptional) return strictSchema(schema.unwrap() as z.ZodType).optional()
  return schema
}

/** Parses `value` strictly against `schema`, failing with what differs and where. */
export function assertAnswer(schema: z.ZodType, value: unknown, what: string): void {
  const result = strictSchema(schema).safeParse(value)
  if (!result.success)
    throw new Error(`${what} does not match its view schema:\n${z.prettifyError(result.error)}`)
}
