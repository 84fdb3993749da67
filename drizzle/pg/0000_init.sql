CREATE TABLE "agent_messages" (
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"message" text NOT NULL,
	CONSTRAINT "agent_messages_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "audit" (
	"id" bigint PRIMARY KEY NOT NULL,
	"ts" bigint NOT NULL,
	"run_id" text,
	"call_id" text,
	"type" text NOT NULL,
	"actor" text NOT NULL,
	"tool" text,
	"action" text,
	"result" text,
	"risk" text,
	"auto_approved" boolean,
	"reason" text,
	"data" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_head" (
	"id" integer PRIMARY KEY NOT NULL,
	"last_id" bigint NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calls" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"item_id" text,
	"attempt" integer DEFAULT 1 NOT NULL,
	"tool" text NOT NULL,
	"args" text NOT NULL,
	"args_hash" text NOT NULL,
	"decision" text,
	"risk" text,
	"decided_by" text,
	"status" text NOT NULL,
	"started_at" bigint NOT NULL,
	"finished_at" bigint,
	"duration_ms" integer,
	"exit_code" integer,
	"pgid" integer,
	"output" text,
	"bytes" bigint,
	"error_code" text,
	"error_type" text,
	"error_message" text
);
--> statement-breakpoint
CREATE TABLE "checkpoints" (
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"created_at" bigint NOT NULL,
	"state" text NOT NULL,
	CONSTRAINT "checkpoints_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" text NOT NULL,
	"ts" bigint NOT NULL,
	"type" text NOT NULL,
	"data" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grants" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "grants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" text NOT NULL,
	"tool" text NOT NULL,
	"pattern" text,
	"source" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plan_items" (
	"run_id" text NOT NULL,
	"id" text NOT NULL,
	"seq" integer NOT NULL,
	"title" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"updated_at" bigint NOT NULL,
	"needs" text DEFAULT '[]' NOT NULL,
	"continue_on_error" boolean DEFAULT false NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"note" text,
	"waiting" boolean DEFAULT false NOT NULL,
	"denied" text,
	CONSTRAINT "plan_items_run_id_id_pk" PRIMARY KEY("run_id","id")
);
--> statement-breakpoint
CREATE TABLE "requests" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"call_id" text,
	"item_id" text,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"title" text NOT NULL,
	"detail" text,
	"answer" text,
	"for_run" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL,
	"settled_at" bigint,
	"settled_by" text
);
--> statement-breakpoint
CREATE TABLE "runs" (
	"id" text PRIMARY KEY NOT NULL,
	"task" text NOT NULL,
	"task_file" text NOT NULL,
	"workdir" text NOT NULL,
	"status" text NOT NULL,
	"driver" text NOT NULL,
	"policy_hash" text,
	"pid" integer,
	"host" text,
	"batch" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	"finished_at" bigint,
	"exit_code" integer,
	"message" text,
	"options" text
);
--> statement-breakpoint
CREATE TABLE "snapshots" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "snapshots_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" text NOT NULL,
	"call_id" text,
	"step" integer NOT NULL,
	"ref" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trust" (
	"workspace" text NOT NULL,
	"path" text NOT NULL,
	"hash" text NOT NULL,
	"trusted_at" bigint NOT NULL,
	CONSTRAINT "trust_workspace_path_pk" PRIMARY KEY("workspace","path")
);
--> statement-breakpoint
CREATE TABLE "usage" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "usage_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"run_id" text NOT NULL,
	"turn" integer NOT NULL,
	"model" text NOT NULL,
	"input_tokens" bigint DEFAULT 0 NOT NULL,
	"output_tokens" bigint DEFAULT 0 NOT NULL,
	"cost" double precision DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT (extract(epoch from now()) * 1000)::bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_messages" ADD CONSTRAINT "agent_messages_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkpoints" ADD CONSTRAINT "checkpoints_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_items" ADD CONSTRAINT "plan_items_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "requests" ADD CONSTRAINT "requests_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage" ADD CONSTRAINT "usage_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_run_idx" ON "audit" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "audit_ts_idx" ON "audit" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "audit_type_idx" ON "audit" USING btree ("type","ts");--> statement-breakpoint
CREATE UNIQUE INDEX "calls_run_seq_idx" ON "calls" USING btree ("run_id","seq");--> statement-breakpoint
CREATE INDEX "calls_status_idx" ON "calls" USING btree ("run_id","status");--> statement-breakpoint
CREATE INDEX "events_run_idx" ON "events" USING btree ("run_id","id");--> statement-breakpoint
CREATE INDEX "grants_run_idx" ON "grants" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "requests_run_idx" ON "requests" USING btree ("run_id","status");--> statement-breakpoint
CREATE INDEX "runs_created_idx" ON "runs" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "runs_status_idx" ON "runs" USING btree ("status");--> statement-breakpoint
CREATE INDEX "snapshots_run_idx" ON "snapshots" USING btree ("run_id","step");--> statement-breakpoint
CREATE INDEX "usage_run_idx" ON "usage" USING btree ("run_id");