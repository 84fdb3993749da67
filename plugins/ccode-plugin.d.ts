// Types for ccode plugins: `import { defineTool, z } from "ccode/plugin"` type-checks in an editor
// with nothing installed. The module itself is built into the ccode binary; `ccode init` writes this file.
declare module "ccode/plugin" {
  export type Risk = "safe" | "low" | "medium" | "high" | "critical"
  export type ErrorType = "param" | "parse" | "execution" | "network" | "timeout" | "not_found" | "denied" | "circuit_open"

  /** What a tool's run() gets besides its arguments. */
  export interface ToolContext {
    /** absolute working directory of the call */
    cwd: string
    /** absolute workspace root */
    workspace: string
    env: Record<string, string>
    /** aborted on timeout, idle timeout or cancel: pass it to fetch, child processes, loops */
    signal: AbortSignal
    /** streamed output (shown live; keeps the idle timer from firing) */
    log(chunk: string): void
    runId: string
    callId: string
    timeoutMs: number
    idleTimeoutMs: number
    /** resolve a path against cwd; refused outside the workspace when the policy confines tools */
    paths: { resolve(path: string, access: "read" | "write"): string }
    /** ask the person running ccode (the run pauses when nobody is there) */
    ask(question: string): Promise<string>
  }

  /** What run() returns: text for the model and the log, data for scripts, or an error. */
  export interface ToolOutput {
    text?: string
    data?: unknown
    error?: { code?: string; type?: ErrorType; message: string }
  }

  /** The envelope every call ends in (what afterCall hooks see). */
  export interface ToolResult {
    status: "ok" | "error"
    text: string
    data?: unknown
    error?: { code: string; type: ErrorType; message: string }
    stats: { duration_ms: number; bytes: number }
  }

  /** What a tool may do to the machine. Declare it: an undeclared tool is taken to do anything. */
  export type Effect = "read" | "write" | "execute" | "network"
  export type PathAccess = "read" | "write"
  /** An argument that names a path, how the tool touches it, and the path used when it is left out. */
  export interface PathArg {
    arg: string
    access: PathAccess
    /** the path when the argument is absent (e.g. "." for a listing) */
    default?: string
    /** the argument names a folder the tool reads below (a grant then covers the folder itself) */
    dir?: boolean
  }
  /** A path a call touches, as its arguments give it (relative to the call's cwd, or absolute). */
  export interface DeclaredPath {
    path: string
    access: PathAccess
    dir?: boolean
  }

  export interface Tool<A> {
    /** snake_case; may not shadow a built-in tool or another plugin's */
    name: string
    description: string
    args: z.ZodType<A>
    /** a level, or a function of the arguments (the policy's risk.tools still wins) */
    risk?: Risk | ((args: A, ctx: { cwd: string; workspace: string }) => Risk)
    /** "30s", "2m", or milliseconds; limits.tool_timeouts in the policy overrides it */
    timeout?: string | number
    /** safe to run again after a crash mid-call */
    idempotent?: boolean
    /** what the tool may do, e.g. ["read"] or ["write", "network"]; undeclared means anything */
    effects?: readonly Effect[]
    /**
     * the paths a call touches, so the policy's path rules (`path: "prod/**", access: write`),
     * risk.paths and protected paths judge them and confinement keeps them in the workspace:
     * `[{ arg: "db", access: "write" }]`, or a function of the arguments. Undeclared: arguments
     * named like paths (path, file, dir, output_file, ...) are taken as paths that are written.
     */
    paths?: readonly PathArg[] | ((args: A) => DeclaredPath[])
    run(args: A, ctx: ToolContext): Promise<ToolOutput>
  }

  export function defineTool<A>(tool: Tool<A>): Tool<A>

  /** Throw to fail a call with your own code and type. */
  export class ToolFailure extends Error {
    constructor(code: string, type: ErrorType, message: string)
    readonly code: string
    readonly type: ErrorType
  }

  /** A call as hooks see it. */
  export interface HookCall {
    tool: string
    args: Record<string, unknown>
    cwd: string
    workspace: string
    runId: string
    callId: string
  }
  /** Hooks can only restrict: deny the call, or rewrite its arguments (which the policy then decides again). */
  export type BeforeCallResult = void | undefined | { deny: string } | { args: Record<string, unknown> }
  export type BeforeCall = (call: HookCall) => BeforeCallResult | Promise<BeforeCallResult>
  export type AfterCall = (call: HookCall, result: ToolResult) => void | Promise<void>

  // A subset of zod 4 (the real zod runs inside ccode): enough to describe arguments and infer their type.
  export namespace z {
    type infer<T extends ZodType<any>> = T["_output"]
    type output<T extends ZodType<any>> = T["_output"]
    type Message = string | { message?: string; error?: string }
    type Shape = { [key: string]: ZodType<any> }
    type Flatten<T> = { [K in keyof T]: T[K] } & {}
    type ObjectOutput<S extends Shape> = Flatten<
      { [K in keyof S as undefined extends S[K]["_output"] ? never : K]: S[K]["_output"] } & {
        [K in keyof S as undefined extends S[K]["_output"] ? K : never]?: S[K]["_output"]
      }
    >

    interface ZodError extends Error {
      issues: { path: (string | number)[]; message: string; code: string }[]
    }
    type SafeParseResult<T> = { success: true; data: T; error?: undefined } | { success: false; error: ZodError; data?: undefined }

    interface ZodType<Out = unknown> {
      readonly _output: Out
      optional(): ZodType<Out | undefined>
      nullable(): ZodType<Out | null>
      nullish(): ZodType<Out | null | undefined>
      default(value: Exclude<Out, undefined> | (() => Exclude<Out, undefined>)): ZodType<Exclude<Out, undefined>>
      describe(description: string): this
      meta(data: Record<string, unknown>): this
      refine(check: (value: Out) => unknown, message?: Message): this
      transform<N>(fn: (value: Out) => N): ZodType<N>
      or<T extends ZodType<any>>(other: T): ZodType<Out | T["_output"]>
      array(): ZodArray<ZodType<Out>>
      parse(value: unknown): Out
      safeParse(value: unknown): SafeParseResult<Out>
    }
    interface ZodString extends ZodType<string> {
      min(length: number, message?: Message): ZodString
      max(length: number, message?: Message): ZodString
      length(length: number, message?: Message): ZodString
      nonempty(message?: Message): ZodString
      regex(pattern: RegExp, message?: Message): ZodString
      startsWith(prefix: string, message?: Message): ZodString
      endsWith(suffix: string, message?: Message): ZodString
      includes(part: string, message?: Message): ZodString
      url(message?: Message): ZodString
      email(message?: Message): ZodString
      uuid(message?: Message): ZodString
      trim(): ZodString
      toLowerCase(): ZodString
      toUpperCase(): ZodString
    }
    interface ZodNumber extends ZodType<number> {
      int(message?: Message): ZodNumber
      min(value: number, message?: Message): ZodNumber
      max(value: number, message?: Message): ZodNumber
      gt(value: number, message?: Message): ZodNumber
      gte(value: number, message?: Message): ZodNumber
      lt(value: number, message?: Message): ZodNumber
      lte(value: number, message?: Message): ZodNumber
      positive(message?: Message): ZodNumber
      nonnegative(message?: Message): ZodNumber
      negative(message?: Message): ZodNumber
      finite(message?: Message): ZodNumber
    }
    interface ZodBoolean extends ZodType<boolean> {}
    interface ZodArray<T extends ZodType<any>> extends ZodType<T["_output"][]> {
      readonly element: T
      min(length: number, message?: Message): ZodArray<T>
      max(length: number, message?: Message): ZodArray<T>
      length(length: number, message?: Message): ZodArray<T>
      nonempty(message?: Message): ZodArray<T>
    }
    interface ZodObject<S extends Shape> extends ZodType<ObjectOutput<S>> {
      readonly shape: S
      extend<E extends Shape>(shape: E): ZodObject<Omit<S, keyof E> & E>
      partial(): ZodObject<{ [K in keyof S]: ZodType<S[K]["_output"] | undefined> }>
      pick<K extends keyof S & string>(keys: { [P in K]?: true }): ZodObject<Pick<S, K>>
      omit<K extends keyof S & string>(keys: { [P in K]?: true }): ZodObject<Omit<S, K>>
      strict(): ZodObject<S>
      passthrough(): ZodObject<S>
    }
    interface ZodEnum<T extends string> extends ZodType<T> {
      readonly options: T[]
    }
  }

  export const z: {
    string(message?: z.Message): z.ZodString
    number(message?: z.Message): z.ZodNumber
    int(message?: z.Message): z.ZodNumber
    boolean(message?: z.Message): z.ZodBoolean
    url(message?: z.Message): z.ZodString
    email(message?: z.Message): z.ZodString
    uuid(message?: z.Message): z.ZodString
    literal<const T extends string | number | boolean | null>(value: T): z.ZodType<T>
    enum<const T extends readonly [string, ...string[]]>(values: T): z.ZodEnum<T[number]>
    object<S extends z.Shape>(shape: S): z.ZodObject<S>
    strictObject<S extends z.Shape>(shape: S): z.ZodObject<S>
    looseObject<S extends z.Shape>(shape: S): z.ZodObject<S>
    array<T extends z.ZodType<any>>(item: T): z.ZodArray<T>
    tuple<const T extends readonly z.ZodType<any>[]>(items: T): z.ZodType<{ [K in keyof T]: T[K]["_output"] }>
    union<const T extends readonly z.ZodType<any>[]>(options: T): z.ZodType<T[number]["_output"]>
    record<V extends z.ZodType<any>>(key: z.ZodType<string>, value: V): z.ZodType<Record<string, V["_output"]>>
    optional<T extends z.ZodType<any>>(schema: T): z.ZodType<T["_output"] | undefined>
    nullable<T extends z.ZodType<any>>(schema: T): z.ZodType<T["_output"] | null>
    unknown(): z.ZodType<unknown>
    any(): z.ZodType<any>
    null(): z.ZodType<null>
    coerce: { string(): z.ZodString; number(): z.ZodNumber; boolean(): z.ZodBoolean }
  }
}
