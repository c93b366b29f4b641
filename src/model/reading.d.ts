// The Reading of a run: everything an output says about it, computed once per command by
// src/reading/read-run.js (readRun) and only laid out by each output: the terminal, report.md, report.html,
// the job summary, the pull-request comment, the workflow outputs, `compare --json` and the site's data.
// hyperfine's model: one result value, many exporters, none of which computes a number again.
// Types only (nothing here runs); plain data, so `compare --json` and the site carry it as it is.

import type { Outcome } from './change.js';
import type { Billing } from './job-cost.js';

/** One side of a comparison: an environment's samples of one metric. */
export interface SideValue {
  env: string;
  distro: string;
  n: number;
  median: number;
  low: number;
  high: number;
}

/** Which pair of cells a comparison is about (src/reading/pairs.js). */
export type PairKind = 'dind-vs-docker' | 'docker-vs-native' | 'alpine-vs-debian' | 'engine-line' | 'ab';

/**
 * A comparison of one metric between two cells, as the reading judged it (src/reading/index.js builds it):
 * a decision (outcome from its interval at `level`) or described (its 95% interval, no outcome).
 * `worse`: the change in cost, + worse for the metric's direction.
 */
export interface ComparisonValue {
  kind: PairKind;
  title: string;
  benchmark: string;
  metric: string;
  unit: string;
  engine: string | null;
  better: 'higher' | 'lower';
  baseline: SideValue;
  candidate: SideValue;
  ratio: { ratio: number; low: number; high: number };
  worse: number;
  p: number;
  q: number;
  cliffsDelta: number;
  threshold: number;
  family: 'decision' | 'described';
  decision: boolean;
  level: number;
  outcome: Outcome | null;
  detectable: { change: number | null; iterationsFor5Pct?: number | null };
  samplesToDecide: number | null;
  why: string | null;
  stopped: string | null;
}

/**
 * The change in the unit a job pays: seconds for a time, MiB for memory; null for a rate (a throughput or
 * an operations count), whose change a job pays only as a share of its own time, so its percent is the answer.
 */
export interface PaidChange {
  unit: 's' | 'MiB';
  diff: number;
  low: number | null;
  high: number | null;
  baseline: number;
  candidate: number;
}

/** What a difference in job time costs, in the run's billing model (src/model/job-cost.js moneyOf). */
export interface QuestionCost {
  /** dollars per job (candidate minus baseline), the billing model's average */
  perJob: number;
  per1000: number;
  /** the same difference as runner time, what hosted rounding can hide */
  occupancyPer1000: number;
  note: string;
}

/** One question of the run: a benchmark's decision metric for a pair the run asks (a metric only --gate names is the gate's). */
export interface Question {
  /** stable within a run: "lifecycle/startup.without_image_ms dind@20.10 vs docker (debian)" */
  id: string;
  /** the resource family it answers for ("start-up", "job", "CPU", ...) */
  resource: string;
  /** the candidate environment and the baseline it is judged against */
  subject: string;
  baseline: string;
  distro: string;
  kind: PairKind;
  benchmark: string;
  metric: string;
  unit: string;
  outcome: Outcome | null;
  /** the change of the decision metric, + worse, with the interval its outcome was read from */
  change: { value: number; low: number; high: number } | null;
  paid: PaidChange | null;
  cost: QuestionCost | null;
  threshold: number;
  level: number;
  samples: { baseline: number; candidate: number };
  /** why the candidate's cell stopped taking samples (decided, iteration cap, budget spent), null for a fixed design */
  stopped: string | null;
  /** about how many samples a side would decide it (an open question), or null */
  samplesToDecide: number | null;
  /** what would decide it, in words ('' when decided) */
  toDecide: string;
  /** the smallest change it could have seen (an open question), or null */
  sees: number | null;
}

/**
 * A table as plain-text cells: every output lays out these very strings (escaped for its format).
 * `groups[i]`: the title row i sits under (the pair a question judges), when the table is grouped.
 */
export interface TextTable {
  header: string[];
  rows: string[][];
  groups?: string[];
}

/**
 * The answer table: a TextTable whose row i is question i, with its outcome beside it (`outcomes[i]`), so an
 * output that colours an answer reads the outcome, never the words of the cell.
 */
export interface AnswerTable extends TextTable {
  outcomes: (Outcome | null)[];
}

/** The cost per job of the first answer: the job summary's first line and the workflow's cost outputs. */
export interface CostAnswer {
  sentence: string;
  /** the sentence as the workflow's `cost` output words it: dollars as USD, an interval as "from LOW to HIGH" */
  outputSentence: string;
  benchmark: string | null;
  baseline: string | null;
  candidate: string | null;
  seconds: { diff: number; low: number | null; high: number | null } | null;
  per1000: number | null;
  occupancyPer1000: number | null;
  price: number;
  billing: Billing;
}

/**
 * A workload's job in its parts (src/reading/parts.js), one candidate against its baseline: per part each
 * side's median with its 95% interval and the difference with its interval; described, not decided.
 */
export interface PartsTable extends TextTable {
  title: string;
  /** said once below the table: how the parts are read */
  note: string;
}

export interface GateItem {
  benchmark: string;
  metric: string;
  where: string;
  outcome: Outcome;
  change: number | null;
  sees: number | null;
  samplesToDecide?: number | null;
}

/** The gate's verdict over the metrics it judges (src/reading/gate.js gateOf); exitCode: its only decider. */
export interface Gate {
  verdict: Outcome | 'nothing gated';
  failOn: 'regression' | 'inconclusive' | null;
  gated: number;
  regressed: GateItem[];
  inconclusive: GateItem[];
  worst: GateItem | null;
  unseen: number | 'any' | null;
  exitCode: number;
  sentence: string;
}

export interface Reading {
  format: 'dind-bench.reading/1';
  run: {
    id: string;
    profile: string;
    iterations: number;
    warmup: number;
    runner: string;
    host: string;
  };
  pricing: { price: number; billing: Billing; text: string };
  /** at most one short paragraph: the run, its billing, how many questions it decided */
  intro: string;
  /** a sentence when the budget left cells out ('' when none) */
  leftOut: string;
  questions: Question[];
  /** the answer, one row per question: question | answer | change [interval] | $ per 1,000 jobs | open: what would decide it */
  table: AnswerTable;
  decided: { decided: number; of: number };
  /** said once, below the answer */
  caveats: string[];
  cost: CostAnswer;
  /** where a workload's job spends its time, per candidate against its baseline: what the job's total is made of */
  parts: PartsTable[];
  /** what the gate judged and its verdict; every exit code comes from src/reading/gate.js exitCodeOf */
  gate: Gate;
  /** every comparison the reading made, decisions and described: the tables below the answer lay them out */
  comparisons: ComparisonValue[];
}
