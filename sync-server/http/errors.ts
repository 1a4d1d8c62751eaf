import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import postgres from 'postgres'
import type { z } from 'zod'
import { type FieldError, invalidInput, type Problem } from '../../shared/problem.ts'
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from './unavailable.ts'

const TITLES: Record<number, string> = {
  400: 'Invalid request',
  401: 'Not signed in',
  403: 'Not allowed',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Request too large',
  415: 'Unsupported media type',
  422: 'Idempotency key reused',
  429: 'Too many requests',
  500: 'Server error',
  503: 'Service unavailable',
}

/**
 * The one error type handlers throw: a status and a sentence a person can
 * read. `onError` turns it into an RFC 9457 problem answer.
 *
 * @example
 * throw new ApiError(404, 'Topic not found')
 */
export class ApiError extends HTTPException {
  readonly detail: string
  readonly errors: FieldError[] | undefined
  readonly kind: ProblemKind | undefined

  constructor(
    status: ContentfulStatusCode,
    detail: string,
    errors?: FieldError[],
    kind?: ProblemKind,
  ) {
    super(status, { message: detail })
    this.detail = detail
    this.errors = errors
    this.kind = kind
  }
}

/** A problem a client tells apart by its `type` URI (and title), not only by its status. */
export type ProblemKind = { type: string; title: string }

/** The one place a problem+json body is built (RFC 9457). */
export function problemBody(
  status: number,
  detail: string,
  errors?: FieldError[],
  kind?: ProblemKind,
): Problem {
  return {
    type: kind?.type ?? 'about:blank',
    title: kind?.title ?? TITLES[status] ?? 'Error',
    status,
    detail,
    ...(errors && errors.length > 0 ? { errors } : {}),
  }
}

export function problemResponse(
  status: number,
  detail: string,
  errors?: FieldError[],
  kind?: ProblemKind,
): Response {
  return new Response(JSON.stringify(problemBody(status, detail, errors, kind)), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  })
}

/** Field errors from a zod failure, with a sentence that names the first of them. */
export function validationError(error: z.ZodError): ApiError {
  const { detail, errors } = invalidInput(error)
  return new ApiError(400, detail, errors)
}

/**
 * Postgres errors that bad input or a race can cause, mapped in one place.
 * Anything else is a server fault.
 */
function fromPostgres(error: postgres.PostgresError): ApiError | null {
  switch (error.code) {
    case '23505': // unique_violation
      return new ApiError(409, 'This conflicts with an existing record.')
    case '23503': // foreign_key_violation
      return new ApiError(409, 'This refers to a record that does not exist.')
    case '23514': // check_violation
    case '23502': // not_null_violation
      return new ApiError(409, 'This change would break a rule of the programme.')
    case '22P02': // invalid_text_representation
    case '22021': // character_not_in_repertoire: a NUL byte in text
    case '22001': // string_data_right_truncation
    case '22003': // numeric_value_out_of_range
    case '22007': // invalid_datetime_format
    case '22008': // datetime_field_overflow
      return new ApiError(400, 'A value in the request is not valid.')
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
      return new ApiError(503, 'The server was busy with a conflicting change; please try again.')
    default:
      return null
  }
}

function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error
  if (isDatabaseUnavailable(error)) {
    return new ApiError(503, 'The database is not reachable right now. Please try again shortly.')
  }
  if (error instanceof postgres.PostgresError) return fromPostgres(error)
  if (error instanceof HTTPException) {
    return new ApiError(error.status as ContentfulStatusCode, error.message || 'Request failed.')
  }
  return null
}

/** The app's one `onError`: problem+json always; a 500 never says more than that. */
export function handleError(error: unknown, c: Context): Response {
  const apiError = toApiError(error)
  if (apiError) {
    const res = problemResponse(apiError.status, apiError.detail, apiError.errors, apiError.kind)
    // A 503 is temporary (database away, conflicting change): say when to come back.
    if (apiError.status === 503) res.headers.set('retry-after', String(RETRY_AFTER_SECONDS))
    return res
  }
  // Log the error itself, never the query parameters or the request body. A replayed mutation's
  // statement refused because its batch's transaction failed before it (its key claim, the
  // previous answer's store: http/transaction.ts sends them together) says nothing more: the
  // cause is thrown and logged as this request's answer.
  if (!(isReplayed(c) && isFailedTransaction(error))) {
    console.error(`Unhandled error on ${c.req.method} ${c.req.path}:`, describe(error))
  }
  return problemResponse(500, 'Something went wrong on the server. Please try again.')
}

function isReplayed(c: Context): boolean {
  return (c.env as { batch?: unknown } | undefined)?.batch !== undefined
}

/** PostgreSQL's in_failed_sql_transaction: an earlier statement of the transaction failed. */
function isFailedTransaction(error: unknown): boolean {
  return error instanceof postgres.PostgresError && error.code === '25P02'
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message
  return String(error)
}
