#!/usr/bin/python3
# Plays one pipeline of ci-examples/github-actions.yml or ci-examples/gitlab-ci.yml
# locally, the steps taken from the YAML as written: matrix jobs expanded, each
# job in a fresh copy of the repository, `run:` steps and `script:` lines run by
# bash -eo pipefail, and the actions and keywords the recipes use done on local
# folders: checkout, cache restore/save (keys, restore-keys and fallback keys;
# GitHub's scoping, where a pull request reads its base branch's caches),
# artifact upload/download; GitLab's protected branches' caches apart from the
# others' unless cache:unprotect. Steps named "Install perfdb" are skipped (perfdb is on
# PATH). Anything else the YAML asks for is an error, so the recipes cannot use
# what this player does not play. Conditions: a job's or a step's `if:` (GitHub)
# and a job's `rules: - if:` (GitLab) of the form `NAME == 'VALUE'` or `!=`. A pull
# request (--pr) targets main, the repository's origin/main (a git repository:
# each job's folder is a copy of it, .git included). A re-run is
# --attempt N: the same run id, GITHUB_RUN_ATTEMPT N, new GitLab job ids; every
# job runs again, and an artifact uploaded again must say overwrite (GitHub's v4
# artifacts are immutable) or is replaced (GitLab's, per job).
# Exit: the status of the first job that fails, else 0.
# Usage: ci-play.py github|gitlab YAML REPO STATE BRANCH RUN_ID [--pr] [--attempt N]
#   REPO: the repository's files (bench.sh); STATE: caches and artifacts, kept
#   between pipelines; --pr: BRANCH's pull request #1 into main.
import fnmatch, glob, itertools, os, re, shutil, subprocess, sys
import yaml

system, path, repo, state, branch, run_id = sys.argv[1:7]
pr = "--pr" in sys.argv[7:]
attempt = sys.argv[sys.argv.index("--attempt") + 1] if "--attempt" in sys.argv else "1"
doc = yaml.safe_load(open(path))
caches = os.path.join(state, "caches")        # caches/SCOPE/KEY/..., in save order
artifacts = os.path.join(state, "artifacts", run_id)
os.makedirs(caches, exist_ok=True)
os.makedirs(artifacts, exist_ok=True)

def fail(msg):
    sys.exit("ci-play: %s: %s" % (path, msg))

def copy_in(src, dst):
    """Copy file or folder src to dst (made), as a cache or artifact restore does."""
    if os.path.isdir(src):
        shutil.copytree(src, dst, dirs_exist_ok=True)
    else:
        os.makedirs(os.path.dirname(dst) or ".", exist_ok=True)
        shutil.copy2(src, dst)

def condition(expr, lookup):
    """A condition NAME == 'VALUE' or NAME != "VALUE", NAME looked up."""
    m = re.fullmatch(r"""\s*\$?([A-Za-z_][A-Za-z0-9_.]*)\s*(==|!=)\s*(['"])(.*)\3\s*""", expr)
    if not m:
        fail("condition '%s': only NAME == 'VALUE' and != are played" % expr)
    return (lookup(m.group(1)) == m.group(4)) == (m.group(2) == "==")

def run_script(script, cwd, env, label):
    print("$ %s" % label, flush=True)
    rc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
                        cwd=cwd, env=env).returncode
    print("  (exit %d)" % rc, flush=True)
    return rc

def fresh_job(name):
    work = os.path.join(state, "jobs", run_id, re.sub(r"[^A-Za-z0-9_.-]", "_", name))
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(repo, work)
    return work

def save_cache(scope, key, work, paths):
    dst = os.path.join(caches, scope, key)
    if os.path.exists(dst):
        return False
    os.makedirs(dst)
    for p in paths:
        if os.path.exists(os.path.join(work, p)):
            copy_in(os.path.join(work, p), os.path.join(dst, p))
    with open(os.path.join(caches, "order"), "a") as f:
        f.write("%s\t%s\n" % (scope, key))
    return True

def cache_entries(scopes):
    """(scope, key) saved in the scopes, newest first."""
    try:
        lines = open(os.path.join(caches, "order")).read().splitlines()
    except FileNotFoundError:
        return []
    found = [tuple(l.split("\t")) for l in reversed(lines)]
    return [(s, k) for s, k in found if s in scopes]

# ---- GitHub Actions

def gh_context(matrix):
    return {"github.run_id": run_id, "github.run_attempt": attempt,
            "github.event_name": "pull_request" if pr else "push",
            "github.head_ref": branch if pr else "",
            "github.base_ref": "main" if pr else "",
            "github.ref_name": "1/merge" if pr else branch,
            **{"matrix." + k: str(v) for k, v in matrix.items()}}

def gh_expand(text, ctx):
    def one(m):
        for term in m.group(1).split("||"):
            term = term.strip()
            if term not in ctx:
                fail("unknown expression '%s'" % term)
            if ctx[term]:
                return ctx[term]
        return ""
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))

def gh_step(step, work, env, ctx, scope):
    uses = step.get("uses")
    w = {k: gh_expand(v, ctx) for k, v in (step.get("with") or {}).items()}
    def known(name):
        if name not in ctx:
            fail("unknown expression '%s'" % name)
        return ctx[name]
    if "if" in step and not condition(step["if"], known):
        print("$ %s: skipped (if: %s)" % (step.get("name") or uses, step["if"]))
        return 0
    if "run" in step:
        if "${{" in step["run"]:
            fail("step '%s': the script uses ${{ }}; give it env variables" % step.get("name"))
        return run_script(step["run"], work, env, step.get("name", "run"))
    if uses == "actions/checkout@v4":
        return 0  # the job's folder is a fresh copy of the repository
    if uses == "actions/upload-artifact@v4":
        dst = os.path.join(artifacts, w["name"])
        if os.path.exists(dst):
            if (step.get("with") or {}).get("overwrite") is not True:
                print("upload-artifact: an artifact named %s exists (v4 artifacts are "
                      "immutable; overwrite: true replaces it)" % w["name"])
                return 1
            shutil.rmtree(dst)
        os.makedirs(dst)
        for f in glob.glob(os.path.join(work, w["path"])):
            shutil.copy2(f, dst)
        print("$ upload-artifact %s: %s" % (w["name"], w["path"]))
        return 0
    if uses == "actions/download-artifact@v4":
        if (step.get("with") or {}).get("merge-multiple") is not True:
            fail("download-artifact: only merge-multiple: true is played")
        names = sorted(n for n in os.listdir(artifacts) if fnmatch.fnmatch(n, w["pattern"]))
        for n in names:
            copy_in(os.path.join(artifacts, n), os.path.join(work, w["path"]))
        print("$ download-artifact %s: %s" % (w["pattern"], " ".join(names)))
        return 0
    if uses == "actions/cache/restore@v4":
        scopes = [scope] + (["main"] if pr else [])  # a pull request reads its base's
        entries = cache_entries(scopes)
        hit = next(((s, k) for s, k in entries if k == w["key"]), None)
        for prefix in w.get("restore-keys", "").split():
            hit = hit or next(((s, k) for s, k in entries if k.startswith(prefix)), None)
        if hit:
            copy_in(os.path.join(caches, *hit, w["path"]), os.path.join(work, w["path"]))
        print("$ cache/restore %s: %s" % (w["key"], "%s (saved by %s)" % (hit[1], hit[0])
                                            if hit else "miss"))
        return 0
    if uses == "actions/cache/save@v4":
        saved = save_cache(scope, w["key"], work, [w["path"]])
        print("$ cache/save %s: %s" % (w["key"], "saved" if saved else "exists, kept"))
        return 0
    fail("step uses '%s', which this player does not play" % uses)

def github():
    scope = "1/merge" if pr else branch  # what a pull request saves is its own
    done = set()
    jobs = doc["jobs"]
    while len(done) < len(jobs):
        needs = {n: jobs[n].get("needs", []) for n in jobs}
        ready = [n for n in jobs if n not in done and
                 set([needs[n]] if isinstance(needs[n], str) else needs[n]) <= done]
        if not ready:
            fail("jobs whose needs cannot be met: %s" % sorted(set(jobs) - done))
        for name in ready:
            job = jobs[name]
            if "if" in job and not condition(job["if"], lambda v: gh_context({}).get(v)):
                print("== job %s: skipped (if: %s)" % (name, job["if"]))
                done.add(name)
                continue
            matrix = (job.get("strategy") or {}).get("matrix") or {}
            keys = sorted(matrix)
            for values in itertools.product(*(matrix[k] for k in keys)):
                m = dict(zip(keys, values))
                ctx = gh_context(m)
                label = name + "".join(" (%s)" % v for v in values)
                work = fresh_job(label)
                env = dict(os.environ, GITHUB_RUN_ID=run_id, GITHUB_RUN_ATTEMPT=attempt,
                           GITHUB_EVENT_NAME=ctx["github.event_name"], GITHUB_SHA="sha" + run_id,
                           GITHUB_REF_NAME=ctx["github.ref_name"],
                           GITHUB_HEAD_REF=ctx["github.head_ref"],
                           GITHUB_STEP_SUMMARY=os.path.join(work, "step-summary.md"))
                env.update({k: gh_expand(v, ctx) for k, v in (job.get("env") or {}).items()})
                print("== job %s" % label, flush=True)
                for step in job["steps"]:
                    if step.get("name") == "Install perfdb":
                        continue
                    rc = gh_step(step, work, env, ctx, scope)
                    if os.path.exists(env["GITHUB_STEP_SUMMARY"]):
                        print("-- step summary\n" + open(env["GITHUB_STEP_SUMMARY"]).read())
                        os.remove(env["GITHUB_STEP_SUMMARY"])
                    if rc != 0:
                        return rc
            done.add(name)
    return 0

# ---- GitLab CI

def gl_expand(text, env):
    return re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", lambda m: env.get(m.group(1), ""), text)

def gitlab():
    slug = re.sub(r"[^a-z0-9]", "-", branch.lower())
    jobs = {n: j for n, j in doc.items()
            if isinstance(j, dict) and "script" in j and not n.startswith(".")}  # .hidden: templates
    job_ids = itertools.count(1)
    for name, job in jobs.items():
        unknown = set(job) - {"stage", "parallel", "script", "artifacts", "cache", "needs", "rules"}
        if unknown:
            fail("job %s: keywords this player does not play: %s" % (name, sorted(unknown)))
    for stage in doc["stages"]:
        for name, job in jobs.items():
            if job["stage"] != stage:
                continue
            combos = [{}]
            for entry in (job.get("parallel") or {}).get("matrix") or []:
                keys = sorted(entry)
                combos = [dict(zip(keys, v)) for v in
                          itertools.product(*(entry[k] if isinstance(entry[k], list)
                                              else [entry[k]] for k in keys))]
            for m in combos:
                label = name + "".join(" %s" % v for v in m.values())
                env = dict(os.environ, CI_PIPELINE_ID=run_id, CI_COMMIT_SHA="sha" + run_id,
                           CI_JOB_ID="%s%s%02d" % (run_id, attempt, next(job_ids)),
                           CI_COMMIT_REF_NAME=branch, CI_COMMIT_REF_SLUG=slug,
                           CI_PIPELINE_SOURCE="merge_request_event" if pr else "push",
                           CI_MERGE_REQUEST_TARGET_BRANCH_NAME="main" if pr else "",
                           **{k: str(v) for k, v in m.items()})
                rules = job.get("rules")
                if rules is not None:
                    if any(set(r) != {"if"} for r in rules):
                        fail("job %s: only rules of one if: are played" % name)
                    if not any(condition(r["if"], lambda v: env.get(v, "")) for r in rules):
                        print("== job %s: not in this pipeline (rules)" % label)
                        continue
                work = fresh_job(label)
                print("== job %s" % label, flush=True)
                for before in doc["stages"][:doc["stages"].index(stage)]:
                    dirs = os.path.join(artifacts, before)  # earlier stages' artifacts
                    for f in sorted(os.listdir(dirs)) if os.path.isdir(dirs) else []:
                        copy_in(os.path.join(dirs, f), work)
                cache = job.get("cache")
                policy = (cache or {}).get("policy", "pull-push")
                if policy not in ("pull", "push", "pull-push"):
                    fail("job %s: cache policy %s" % (name, policy))
                # protected (main) and other branches' caches are apart unless unprotect
                side = "" if cache and cache.get("unprotect") is True else \
                    "-protected" if branch == "main" else "-non_protected"
                if cache and policy != "push":
                    keys = [gl_expand(cache["key"], env) + side] + \
                        [k + side for k in cache.get("fallback_keys", [])]
                    hit = next((k for k in keys if os.path.isdir(os.path.join(caches, "gl", k))),
                               None)
                    if hit:
                        copy_in(os.path.join(caches, "gl", hit), work)
                    print("$ cache %s: %s" % (keys[0], hit or "miss"))
                rc = run_script("\n".join(job["script"]), work, env, label + ": script")
                if cache and policy != "pull" and (rc == 0 or cache.get("when") == "always"):
                    key = gl_expand(cache["key"], env) + side
                    shutil.rmtree(os.path.join(caches, "gl", key), ignore_errors=True)
                    save_cache("gl", key, work, cache["paths"])  # GitLab overwrites a key
                    print("$ cache %s: saved" % key)
                if rc != 0:
                    return rc
                art = os.path.join(artifacts, stage, label.replace(" ", "_"))
                shutil.rmtree(art, ignore_errors=True)  # a job's retry replaces its artifacts
                for p in (job.get("artifacts") or {}).get("paths", []):
                    if os.path.exists(os.path.join(work, p)):
                        copy_in(os.path.join(work, p), os.path.join(art, p))
    return 0

sys.exit(github() if system == "github" else gitlab())
