/**
 * SQL column types -> workload attribute types, for PostgreSQL, MySQL and SQL Server type names.
 * A type that is none of the known families is a string (how it would travel in JSON).
 */
import type { AttributeType } from "../../workload/types.js";

/** `year` is MySQL's YEAR (1901-2155) and pagila's domain over integer: a number either way. */
const NUMBER =
  /^(small|big|tiny|medium)?int(eger)?\d*\b|^(int[248]|serial\d*|smallserial|bigserial|decimal|numeric|number|real|float\d*|double|money|smallmoney|dec|fixed|oid|year)\b/;
const BOOLEAN = /^(bool(ean)?|bit)\b/;
const DATETIME = /^(timestamp|timestamptz|datetime\d*|datetimeoffset|smalldatetime|date|time|timetz)\b/;
const OBJECT = /^(jsonb?|hstore|xml)\b/;

/**
 * The attribute type of a declared SQL type (`bigint` -> number, `timestamp with time zone` ->
 * datetime, `text[]` -> array, `jsonb` -> object, pgvector's `vector(1536)` and `halfvec(n)` ->
 * array). `bit(n)` with n > 1 is a bit string.
 * @example attributeTypeOf("numeric(10,2)") // "number"
 */
export function attributeTypeOf(sqlType: string): AttributeType {
  const type = sqlType.trim().toLowerCase().replace(/^"|"$/g, "");
  if (/\[\s*\d*\s*\]$/.test(type) || /^_/.test(type) || /\barray\b/.test(type)) return "array";
  // pgvector's dense vectors are arrays of numbers (`vector(1536)`, `halfvec(768)`)
  if (/^(vector|halfvec)\b/.test(type)) return "array";
  if (/^bit\s*\(\s*([2-9]|\d{2,})/.test(type) || /^bit varying/.test(type)) return "string";
  if (BOOLEAN.test(type)) return "boolean";
  if (/^unsigned|^signed/.test(type) || NUMBER.test(type)) return "number";
  if (DATETIME.test(type))
    return type.startsWith("time") && !type.startsWith("timestamp") ? "string" : "datetime";
  if (OBJECT.test(type)) return "object";
  return "string";
}
