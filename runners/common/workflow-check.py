#!/usr/bin/env python3
"""BROKER SIDE: what a workflow a runner group admits would let reach the group's runners, read from the
workflow's structure (parsed YAML), never from a text marker a copy could keep while dropping the check.

    python3 runners/common/workflow-check.py < WORKFLOW.yml

prints one line, a word and, after a tab, why:
    caller      it defines no self-hosted job (GitHub gives a group's runners only to jobs defined in a
                selected workflow, not to the workflows it calls)
    plain       not reusable, with self-hosted jobs (its own triggers decide, SECURITY.md)
    guarded     reusable, with dind-bench's guard: a first job on a GitHub-hosted runner, with no
                permissions, that runs only its own scripts, always, reading the event and the ref; every
                other job waits for it; every self-hosted job's own `if:` tests the event and the ref and
                never runs after a failure (no always(), failure(), cancelled())
    unguarded   reusable without that guard (the reason says which part is missing)
    writer      a job holding a write permission (or the default token: no permissions given) does not
                open with the step that fails unless RUNNER_ENVIRONMENT is github-hosted (a self-hosted
                runner of the group carrying a GitHub-hosted label would get that job and its token);
                checked after the guard, as test/workflow/workflows.test.js checks dind-bench's own
    unparsable  not a workflow
Used by github-runners.sh (workflow_problems); tested in test/workflow/runner-broker.test.js.
"""
import re
import sys

import yaml

HOSTED_LABEL = re.compile(r"^(ubuntu|windows|macos)-[A-Za-z0-9.-]+$")
# dind-bench's hosted expression (src/workflow/reusable.js HOSTED_RUNNER): a variable used only when it is
# one of a list of labels, else a default label. Hosted when the list and the default are.
HOSTED_EXPRESSION = re.compile(
    r"^\$\{\{\s*contains\(fromJSON\('(\[[^']*\])'\),\s*(vars\.[A-Za-z0-9_]+)\)\s*&&\s*\2\s*\|\|\s*'([^']+)'\s*\}\}$"
)
AFTER_FAILURE = re.compile(r"\b(always|failure|cancelled)\s*\(")
# The first step of every job holding a write permission: src/workflow/reusable.js HOSTED_ONLY_STEP, word for
# word (test/workflow/workflow-check.test.js holds the two together).
HOSTED_ONLY_NAME = "GitHub-hosted runner only"
HOSTED_ONLY_SCRIPT = """if [ "${RUNNER_ENVIRONMENT:-}" != github-hosted ]; then
  kind=${RUNNER_ENVIRONMENT:-unset}
  kind=${kind//[^A-Za-z0-9_-]/?}
  echo "::error title=dind-bench hosted runner::refused: this job holds a write token and runs only on a GitHub-hosted runner, but this runner says RUNNER_ENVIRONMENT=${kind:0:40}. A self-hosted runner carries a GitHub-hosted label (ubuntu-*, windows-*, macos-*): remove that label from it (SECURITY.md, Workflows and runners)"
  exit 1
fi
"""


def hosted(runs_on):
    """True when runs-on can only be a GitHub-hosted label."""
    if isinstance(runs_on, list) and len(runs_on) == 1:
        runs_on = runs_on[0]
    if not isinstance(runs_on, str):
        return False
    if HOSTED_LABEL.match(runs_on):
        return True
    m = HOSTED_EXPRESSION.match(runs_on.strip())
    if not m:
        return False
    try:
        labels = yaml.safe_load(m.group(1))
    except yaml.YAMLError:
        return False
    return (
        isinstance(labels, list)
        and all(isinstance(x, str) and HOSTED_LABEL.match(x) for x in labels)
        and bool(HOSTED_LABEL.match(m.group(3)))
    )


def triggers(doc):
    # YAML 1.1 (PyYAML) reads the key `on` as true.
    on = doc.get("on", doc.get(True))
    if isinstance(on, str):
        return {on}
    if isinstance(on, list):
        return {str(x) for x in on}
    if isinstance(on, dict):
        return {str(x) for x in on}
    return set()


def needs_of(job):
    n = job.get("needs", [])
    return [n] if isinstance(n, str) else list(n) if isinstance(n, list) else []


def upstream(jobs, name, seen=None):
    seen = set() if seen is None else seen
    for n in needs_of(jobs.get(name) or {}):
        if n not in seen and n in jobs:
            seen.add(n)
            upstream(jobs, n, seen)
    return seen


def guard_problem(jobs, self_hosted):
    """Why the workflow has no dind-bench guard, or None."""
    guard = jobs.get("guard")
    if not isinstance(guard, dict):
        return "no guard job"
    if needs_of(guard) or "if" in guard or guard.get("continue-on-error") or "strategy" in guard:
        return "the guard job waits for another job, has a condition, a matrix or continue-on-error"
    if not isinstance(guard.get("runs-on"), str) or not HOSTED_LABEL.match(guard["runs-on"]):
        return "the guard job's runs-on is not a GitHub-hosted label written out"
    if guard.get("permissions") != {}:
        return "the guard job has permissions (it must have none: permissions: {})"
    steps = guard.get("steps")
    if not isinstance(steps, list) or not steps:
        return "the guard job has no steps"
    for s in steps:
        if not isinstance(s, dict) or "uses" in s or not isinstance(s.get("run"), str):
            return "a guard step runs an action, not its own script"
        if "if" in s or s.get("continue-on-error"):
            return "a guard step has a condition or continue-on-error: its refusal could be skipped"
    reads = [
        set(str(v).replace(" ", "") for v in (s.get("env") or {}).values()) for s in steps if isinstance(s, dict)
    ]
    if not any({"${{github.event_name}}", "${{github.ref}}"} <= r for r in reads):
        return "no guard step reads the event and the ref (github.event_name, github.ref)"
    for name in jobs:
        if name != "guard" and "guard" not in upstream(jobs, name):
            return f"the job {name} does not wait for the guard"
    for name in self_hosted:
        cond = str(jobs[name].get("if", ""))
        if "github.event_name" not in cond or "github.ref" not in cond or AFTER_FAILURE.search(cond):
            return f"the self-hosted job {name} has no own condition on the event and the ref, or runs after a failure"
    return None


def writes(doc, job):
    """The scopes a job's token may write: its own permissions, else the workflow's; none given is the
    repository's default token, which may write."""
    p = job.get("permissions", doc.get("permissions"))
    if p is None or p == "write-all":
        return ["(everything: no permissions given)"]
    if not isinstance(p, dict):
        return []
    return [str(k) for k, v in p.items() if v == "write"]


def writer_problem(doc, jobs):
    """The first job holding a write permission that does not open with the hosted-only step, or None. A
    job calling another workflow runs no steps of its own here: the called workflow is checked itself."""
    for name, job in jobs.items():
        scopes = writes(doc, job)
        if not scopes or "uses" in job:
            continue
        steps = job.get("steps")
        first = steps[0] if isinstance(steps, list) and steps else None
        if (
            not isinstance(first, dict)
            or set(first) != {"name", "run"}
            or first.get("name") != HOSTED_ONLY_NAME
            or first.get("run") != HOSTED_ONLY_SCRIPT
        ):
            return (
                f"job {name} holds a write permission ({', '.join(scopes)}) and does not open with the step "
                "that fails unless RUNNER_ENVIRONMENT is github-hosted"
            )
    return None


def main():
    try:
        doc = yaml.safe_load(sys.stdin.read())
    except yaml.YAMLError as e:
        print(f"unparsable\t{str(e).splitlines()[0]}")
        return
    if not isinstance(doc, dict) or not isinstance(doc.get("jobs"), dict):
        print("unparsable\tno jobs")
        return
    jobs = {str(k): v for k, v in doc["jobs"].items() if isinstance(v, dict)}
    # A job that calls another workflow (uses:) runs on no runner of its own.
    self_hosted = [n for n, j in jobs.items() if "uses" not in j and not hosted(j.get("runs-on"))]
    guard = guard_problem(jobs, self_hosted) if self_hosted and "workflow_call" in triggers(doc) else None
    # A reusable workflow without the guard is refused as such first (its own, broader reason).
    writer = writer_problem(doc, jobs) if guard is None else None
    if guard is not None:
        print(f"unguarded\t{guard}")
    elif writer is not None:
        print(f"writer\t{writer}")
    elif not self_hosted:
        print("caller\tno self-hosted job")
    elif "workflow_call" not in triggers(doc):
        print("plain\t" + ",".join(self_hosted))
    else:
        print("guarded\t")


if __name__ == "__main__":
    main()
