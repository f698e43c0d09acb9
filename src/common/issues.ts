/**
 * Problems with the user's input, and design findings, as typed data (STYLE.md rules 5 and 15).
 * Every loader and every check returns all of them at once instead of throwing.
 *
 * An issue is a union on `code`, each code with its own payload (Zod's issues are built the
 * same way): a consumer that needs the container of a hot partition reads `issue.container`
 * after narrowing on the code, never a regex over the path or the message. Paths stay arrays of
 * segments until they are printed ({@link formatPath}) or serialized ({@link issueToJson}).
 */

export type Severity = "error" | "warning" | "info";

/** Where in a document: field names and list indexes, e.g. `["accessPatterns", 3, "where"]`. */
export type IssuePath = readonly (string | number)[];

/** The payload each code carries besides the common fields. Codes without one map to `Plain`. */
type Plain = Record<never, never>;

/** The namespaces of the failures of the edges (files, network, sessions) and of bugs. */
type FailureNamespace = "cli" | "files" | "verify" | "import" | "mcp" | "prices" | "internal";
/** The code of a command's failure reported as an issue (see `CosmosModelerError`). */
export type FailureCode = `${FailureNamespace}.${string}`;

export interface IssuePayloads {
  // Reading a YAML or JSON document.
  "source.syntax": Plain;
  "source.tooLarge": Plain;
  "source.aliasBomb": Plain;
  "source.tooComplex": Plain;

  // Loading a workload.
  "workload.invalidValue": Plain;
  "workload.missingField": Plain;
  "workload.unknownField": Plain;
  "workload.fieldNotAllowed": Plain;
  "workload.invalidName": Plain;
  "workload.duplicateId": Plain;
  "workload.duplicateEntry": Plain;
  "workload.badWith": Plain;
  "workload.unknownEntity": { readonly entity: string };
  "workload.unknownPattern": { readonly pattern: string };
  "workload.unknownAttribute": { readonly entity: string; readonly attribute: string };
  "workload.itemTooLarge": { readonly entity: string; readonly bytes: number };
  "workload.peakBelowAverage": { readonly pattern: string; readonly avg: number; readonly peak: number };
  /**
   * `latest(entity, N)` on an entity without a datetime attribute: nothing in the data says which
   * records are the newest (`workload/recency.ts`).
   */
  "workload.latestWithoutTime": { readonly pattern: string; readonly entity: string };
  /**
   * More than any Cosmos DB account could hold or serve (`cosmos/limits.ts`): an entity's data at
   * the horizon or one request's records over a container's largest storage (GB), or the requests
   * per second of the workload over an account's largest throughput (RU/s).
   */
  "workload.beyondServiceLimit": {
    readonly limit: "containerStorage" | "requestBytes" | "accountThroughput";
    readonly value: number;
    readonly maximum: number;
  };
  // The workload's warnings: valid, but an expert would ask.
  "workload.readWithoutCreate": { readonly pattern: string; readonly entity: string };
  "workload.writeWithoutRead": { readonly pattern: string; readonly entity: string };
  /** Item writes per second at peak over all write patterns, or items in one batch request. */
  "workload.massiveScale": {
    readonly pattern: string;
    readonly measure: "itemWritesPerSecond" | "batchItems";
    readonly value: number;
  };
  /** An hourly traffic profile whose mean is below the average rates' share of the peaks. */
  "workload.inconsistentTrafficProfile": Plain;
  "workload.lowCardinalityFilter": {
    readonly pattern: string;
    readonly attribute: string;
    readonly distinct: number;
  };
  /** A read without a filter, a limit or an expected result size: it reads every record. */
  "workload.unselectiveRead": { readonly pattern: string; readonly entity: string };
  /** Records created per month by the create patterns and `growthPerMonth` disagree. */
  "workload.growthMismatch": {
    readonly entity: string;
    readonly growthPerMonth: number;
    readonly createdPerMonth: number;
  };
  /** A read filters or sorts on an attribute that none of the entity's writes sets. */
  "workload.filterNeverWritten": {
    readonly pattern: string;
    readonly entity: string;
    readonly attribute: string;
  };

  // Loading a model.
  "model.invalidValue": Plain;
  "model.missingField": Plain;
  "model.unknownField": Plain;
  "model.duplicateContainer": Plain;
  "model.duplicateItemType": Plain;
  "model.duplicateProperty": Plain;
  "model.badPartitionKey": Plain;
  "model.badBucket": Plain;
  "model.badKeepLatest": Plain;
  "model.badReplicas": Plain;
  "model.badShards": Plain;
  "model.badSource": Plain;
  "model.badTemplate": Plain;
  "model.unknownSource": Plain;
  "model.truncateUnselected": Plain;
  "model.ttlIgnored": Plain;
  "model.noRelationship": Plain;
  "model.unstoredEntity": { readonly entity: string };
  "model.unknownEntity": { readonly entity: string };
  "model.unknownAttribute": { readonly entity: string; readonly attribute: string };
  /**
   * With `deletes: allVersionsAndDeletes`, a counter or copy that a delete event (id and
   * partition key only) cannot address: `target` is `container/type`, `missing` the attributes.
   */
  "model.deleteNotTraceable": {
    readonly container: string;
    readonly itemType: string;
    readonly target: string;
    readonly missing: readonly string[];
  };
  /** A write changes an attribute that places items of a type that cannot move (a bucket). */
  "model.keyChangedInPlace": { readonly pattern: string; readonly attributes: readonly string[] };
  /**
   * `integratedCache.patterns` names a pattern the cache cannot serve: no such pattern, a write,
   * a read that must be fresh (no `maxStalenessSeconds` above 0), a consistency that bypasses the
   * cache (not session or eventual), or a pattern listed twice.
   */
  "model.uncacheablePattern": {
    readonly pattern: string;
    readonly reason: "unknownPattern" | "duplicate" | "notRead" | "mustBeFresh" | "consistency";
  };

  // Reading recorded charges (`calibrate`) and coefficients files (`--coefficients`).
  "calibration.invalidRow": Plain;
  "calibration.notChargeBearing": Plain;
  "coefficients.invalid": Plain;

  // Reading `estimate-ru` operations.
  "operation.invalidJson": Plain;
  "operation.notAnObject": Plain;
  "operation.missingOp": Plain;
  "operation.invalidOp": Plain;
  "operation.unknownField": Plain;
  "operation.invalidNumber": Plain;
  "operation.invalidConsistency": Plain;
  "operation.invalidPartitions": Plain;
  "operation.invalidBoolean": Plain;
  "operation.itemTooLarge": Plain;
  "operation.changedExceedsIndexed": Plain;
  "operation.invalidOperations": Plain;

  // Reading a price file.
  "prices.notAnObject": Plain;
  "prices.unknownField": Plain;
  "prices.invalidValue": Plain;

  // Reading a verify run for the report.
  "report.invalidVerification": Plain;

  // The modeling session.
  "session.invalidAnswer": Plain;
  "session.invalidWorkload": Plain;
  "session.invalidSessionFile": Plain;
  /** A change the session could not apply; `change` is its kind (`add-entity`, ...). */
  "session.changeRejected": {
    readonly change: string;
    /** The field of the change that is wrong, when one is. */
    readonly field?: string;
  };
  "session.warning": Plain;

  // A command's failure reported like an issue: an edge's error (`cli.fileNotFound`,
  // `verify.endpointUnreachable`, ...; see `CosmosModelerError`) or `internal.error` for a bug.
  [failure: FailureCode]: Plain;

  // Findings of the evaluation (figures at peak).
  "evaluate.patternNotServed": { readonly pattern: string };
  "evaluate.fanOut": {
    readonly pattern: string;
    readonly physicalPartitions: number;
    readonly ruPerRequest: number;
    readonly rusPeak: number;
  };
  "evaluate.fanOutCannotScale": {
    readonly pattern: string;
    readonly container: string;
    /** RU/s at peak that one more physical partition adds to this pattern's fan-out. */
    readonly rusAddedPerPartition: number;
    readonly physicalPartitions: number;
  };
  "evaluate.boundedSetTooSmall": { readonly pattern: string };
  "evaluate.hotPartition": { readonly container: string; readonly rusPeak: number };
  /**
   * A partition over the workload's target share of its limit (`scale.targetUtilization`), its
   * estimate under the limit: `rus`, the hottest logical partition's RU/s at peak at the top of
   * the RU range (possibly over the limit); `storage`, the largest logical partition's GB at the
   * horizon.
   */
  "evaluate.noHeadroom": {
    readonly container: string;
    readonly measure: "rus" | "storage";
    readonly value: number;
    readonly limit: number;
    readonly targetUtilization: number;
  };
  "evaluate.hotPhysicalPartition": {
    readonly container: string;
    readonly physicalPartitions: number;
    readonly rusPeak: number;
  };
  "evaluate.pinnedPartitionsOverloaded": {
    readonly container: string;
    readonly physicalPartitions: number;
    readonly requiredRus: number;
    readonly partitionsNeeded: number;
  };
  "evaluate.logicalPartitionTooLarge": { readonly container: string; readonly storageGB: number };
  "evaluate.logicalPartitionGrowth": {
    readonly container: string;
    readonly itemType: string;
    readonly gbPerHour: number;
    readonly hoursTo20GB: number;
  };
  /** Provisioned below what the busiest partition needs at peak (requests throttled with 429). */
  "evaluate.underProvisioned": { readonly container: string; readonly rusPeak: number };
  /**
   * Over the default 1,000,000 RU/s of a container or a shared database (a warning: a support
   * ticket raises it), or over 2,147,483,647 RU/s, the most the API can hold (an error);
   * `maximum` is the one exceeded.
   */
  "evaluate.overContainerMaximum": {
    readonly containers: readonly string[];
    readonly rus: number;
    readonly maximum: number;
  };
  /** Serverless and provisioned throughput in one account, where the mode is per account. */
  "evaluate.mixedCapacityModes": {
    readonly serverless: readonly string[];
    readonly provisioned: readonly string[];
  };
  "evaluate.serverlessNotPossible": { readonly container: string };
  "evaluate.itemTooLarge": { readonly container: string; readonly itemType: string; readonly bytes: number };
  /**
   * Items of one item type addressed by attributes that do not identify a record (neither the
   * entity's key nor a unique attribute among them): two records can get one id in one logical
   * partition (`src/cost/soundness.ts`).
   */
  "evaluate.idNotUnique": {
    readonly container: string;
    readonly itemType: string;
    readonly entity: string;
    /** The attributes the id, partition key, shard and window are rendered from. */
    readonly attributes: readonly string[];
  };
  /**
   * Ids (at most 1,023 bytes) or partition key values (2,048 bytes each) rendered from attributes
   * the workload says are longer (`src/cost/soundness.ts`).
   */
  "evaluate.keyTooLong": {
    readonly container: string;
    readonly itemType: string;
    readonly field: "id" | "partitionKey";
    readonly template: string;
    /** The longest value assumed, in bytes. */
    readonly bytes: number;
    readonly limit: number;
  };
  /** A container without `defaultTtl` whose items carry a `ttl` (item types' own, tombstones). */
  "evaluate.ttlOff": { readonly container: string; readonly reasons: readonly string[] };
  /**
   * Derived data is kept from the change feed of `containers`, but the model names no lease
   * container (`leases`) where the processors keep their place.
   */
  "evaluate.leaseContainerMissing": { readonly containers: readonly string[] };
  /**
   * A write changes an attribute of the id or partition key of items that cannot be moved (a
   * bucket holding many records): the model would patch a key in place, which Cosmos DB cannot.
   */
  "evaluate.keyChangedInPlace": {
    readonly pattern: string;
    readonly container: string;
    readonly itemType: string;
    readonly attributes: readonly string[];
  };
  /**
   * A copied attribute the model cannot keep up to date: no relationship with `via` leads from
   * the source entity to the items holding the copy (a many-to-many relationship without a link
   * attribute), so neither the holder's create nor a change of the attribute can find them.
   */
  "evaluate.copyNotMaintainable": {
    readonly pattern: string;
    readonly container: string;
    readonly itemType: string;
    readonly property: string;
    readonly entity: string;
    readonly attribute: string;
  };
  /**
   * A counter kept from the change feed of its counted child that the child cannot address: the
   * holder's id or partition key needs attributes (`missing`) the child entity does not have, so
   * the change-feed handler, which sees only the child's item, cannot find the holder.
   */
  /**
   * A copy of a parent's attribute on items a write creates or rewrites, whose parent no item type
   * stores completely under its key alone: the new item cannot read the value to copy.
   */
  "evaluate.copySourceUnreadable": {
    readonly pattern: string;
    readonly container: string;
    readonly itemType: string;
    readonly property: string;
    readonly entity: string;
    readonly attribute: string;
  };
  /**
   * A write of a child embedded in its parent's item, whose record does not give the attributes
   * that place the parent's item (`missing`): the patch of the parent cannot be addressed.
   */
  "evaluate.embedNotAddressable": {
    readonly pattern: string;
    readonly container: string;
    readonly itemType: string;
    readonly entity: string;
    readonly holder: string;
    readonly missing: readonly string[];
  };
  /**
   * A write that may move a child embedded in its parent's item to another parent (it changes the
   * relationship's `via`): the old parent keeps the child.
   */
  "evaluate.embedReparented": {
    readonly pattern: string;
    readonly container: string;
    readonly itemType: string;
    readonly entity: string;
    readonly holder: string;
    readonly via: readonly string[];
  };
  /**
   * A write that takes a member from a bounded set (`keepLatest`) or may make it older, when the
   * set holds fewer than all its source's records and cannot be refilled from its source
   * (`cause`: the source keeps only some records, or does not index the set's order attribute).
   */
  "evaluate.boundedSetNotRefilled": {
    readonly pattern: string;
    readonly container: string;
    readonly itemType: string;
    readonly entity: string;
    readonly reason: "delete" | "key" | "order";
    readonly cause: "sourceIncomplete" | "orderNotIndexed";
    readonly attributes: readonly string[];
  };
  "evaluate.counterNotAddressable": {
    readonly pattern: string;
    readonly container: string;
    readonly itemType: string;
    readonly property: string;
    readonly entity: string;
    /** The entity whose items hold the counter. */
    readonly holder: string;
    readonly missing: readonly string[];
  };
  /**
   * Writes that must commit together (`atomicWith`) whose items are not in one logical partition
   * of one container, so no transactional batch can hold them: `unrelated` (not parent and child
   * through a key attribute), `notStored` (an entity has no item type, nor is embedded in the
   * other's), `differentContainers`, or `differentKeys` (one container, the child not keyed by its
   * parent's key, or an item type write-sharded).
   */
  /** The cached reads' keys within a staleness window need more memory than a node caches. */
  "evaluate.integratedCacheTooSmall": {
    readonly size: string;
    readonly workingSetGB: number;
    readonly cacheGB: number;
  };
  /** Fewer dedicated gateway nodes than Microsoft recommends for production. */
  "evaluate.integratedCacheFewNodes": { readonly nodes: number };
  "evaluate.notAtomic": {
    readonly pattern: string;
    readonly partner: string;
    readonly reason: "unrelated" | "notStored" | "differentContainers" | "differentKeys";
  };
}

export type IssueCode = keyof IssuePayloads;

/** The fields every issue has. */
interface IssueFields {
  readonly severity: Severity;
  /** Field path inside the document; empty for the whole file. */
  readonly path: IssuePath;
  readonly message: string;
  /** File the problem is in, when it came from a file. */
  readonly file?: string;
  /** 1-based line in `file`, when known. */
  readonly line?: number;
  /** A suggested fix ("did you mean userId?"). */
  readonly suggestion?: string;
}

/** The issue of one code (of each code, for a union): its payload and the common fields. */
export type IssueOf<C extends IssueCode> = C extends IssueCode
  ? { readonly code: C } & IssuePayloads[C] & IssueFields
  : never;

/** One problem: a namespaced code with its payload, where it is, what is wrong and what would be valid. */
export type Issue = IssueOf<IssueCode>;

/** What a check names when it reports: a code without payload, or a code with its payload. */
export type IssueDetail =
  | { [C in IssueCode]: keyof IssuePayloads[C] extends never ? C : never }[IssueCode]
  | { [C in IssueCode]: { readonly code: C } & IssuePayloads[C] }[IssueCode];

/** The codes of the evaluation's findings, and those findings. */
export type EvaluationIssueCode = Extract<IssueCode, `evaluate.${string}`>;
export type EvaluationIssue = IssueOf<EvaluationIssueCode>;

/** The result of anything that reads user input: the value, or every problem found. */
export type Result<T> =
  | { readonly ok: true; readonly value: T; readonly issues: readonly Issue[] }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/** True when at least one issue is an error (warnings and info do not fail a command). */
export function hasErrors(issues: readonly Issue[]): boolean {
  return issues.some((issue) => issue.severity === "error");
}

/** Formats a path as `accessPatterns[3].where.userId`. */
export function formatPath(path: readonly (string | number | symbol)[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

/** Formats one issue the way every command prints it: `file:line path: message (suggestion)`. */
export function formatIssue(issue: Issue): string {
  const where = [issue.file, issue.line].filter((part) => part !== undefined).join(":");
  const location = [where, formatPath(issue.path)].filter((part) => part !== "").join(" ");
  const suggestion = issue.suggestion === undefined ? "" : ` (${issue.suggestion})`;
  return `${issue.severity} ${issue.code}${location === "" ? "" : ` ${location}`}: ${issue.message}${suggestion}`;
}

/**
 * An issue as the JSON outputs carry it (`--json`, MCP results, `evaluation.json`): the common
 * fields first, the path formatted as a string (`accessPatterns[3].where`), then the payload.
 */
export type JsonIssue = {
  [C in IssueCode]: { readonly code: C; readonly path: string } & Omit<IssueFields, "path"> &
    IssuePayloads[C];
}[IssueCode];

/** Serializes an issue for the JSON outputs (see {@link JsonIssue}). */
export function issueToJson(issue: Issue): JsonIssue {
  const { code, severity, path, message, file, line, suggestion, ...payload } = issue;
  return {
    code,
    severity,
    path: formatPath(path),
    message,
    ...(file === undefined ? {} : { file }),
    ...(line === undefined ? {} : { line }),
    ...(suggestion === undefined ? {} : { suggestion }),
    ...payload,
  } as JsonIssue;
}

/** Collects the issues of one check or load, each placed in its file and line. */
export interface IssueSink {
  report(
    severity: Severity,
    detail: IssueDetail,
    path: IssuePath,
    message: string,
    suggestion?: string,
  ): void;
  error(detail: IssueDetail, path: IssuePath, message: string, suggestion?: string): void;
  warning(detail: IssueDetail, path: IssuePath, message: string, suggestion?: string): void;
  /** Adds issues found elsewhere (placed by this sink when they have no line). */
  add(...issues: readonly Issue[]): void;
  /** True once any error (not warning) was reported. */
  hasErrors(): boolean;
  /** The issues in the order of the file (by line), then in the order reported. */
  issues(): readonly Issue[];
}

export interface IssueSinkOptions {
  /** File the issues are in. */
  readonly file?: string;
  /** The line of a path in that file, when known. */
  readonly lineOf?: (path: IssuePath) => number | undefined;
}

/**
 * The one issue sink: every loader and check reports through it.
 * @example const sink = createIssueSink({ file: "workload.yaml", lineOf }); sink.error("workload.invalidValue", ["name"], "...")
 */
export function createIssueSink(options: IssueSinkOptions = {}): IssueSink {
  const collected: Issue[] = [];
  const place = (issue: Issue): Issue => {
    const line = issue.line ?? options.lineOf?.(issue.path);
    return {
      ...issue,
      ...(options.file === undefined || issue.file !== undefined ? {} : { file: options.file }),
      ...(line === undefined ? {} : { line }),
    };
  };
  const report: IssueSink["report"] = (severity, detail, path, message, suggestion) => {
    const payload = typeof detail === "string" ? { code: detail } : detail;
    collected.push(
      place({
        ...payload,
        severity,
        path,
        message,
        ...(suggestion === undefined ? {} : { suggestion }),
      } as Issue),
    );
  };
  return {
    report,
    error: (detail, path, message, suggestion) => report("error", detail, path, message, suggestion),
    warning: (detail, path, message, suggestion) => report("warning", detail, path, message, suggestion),
    add: (...issues) => collected.push(...issues.map(place)),
    hasErrors: () => hasErrors(collected),
    issues: () =>
      collected
        .map((issue, index) => ({ issue, index }))
        .sort(
          (a, b) =>
            (a.issue.line ?? Number.MAX_SAFE_INTEGER) - (b.issue.line ?? Number.MAX_SAFE_INTEGER) ||
            a.index - b.index,
        )
        .map(({ issue }) => issue),
  };
}
