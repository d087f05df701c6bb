#!/usr/bin/env bash
# Fixes in a multi-targeted library, the way most libraries ship: the packed nupkg is added to a project built for
# netstandard2.0 and net10.0 with every rule raised, `dotnet format analyzers` fixes it twice, and
# every target must build with warnings as errors (the rules' own remaining diagnostics excepted). Two configurations of the same sources
# (.ci/multitarget/*.cs): "legacy", the SDK defaults (C# 7.3 on netstandard2.0, C# 14 with nullable warnings as
# errors on net10.0), and "modern" (the newest C# and nullable on both).
# Usage: .ci/multitarget-check.sh <folder-with-nupkg>
set -euo pipefail
feed=$(cd "$1" && pwd)
sources=$(cd "$(dirname "$0")/multitarget" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/consumer-project.sh"
source "$(dirname "$0")/rules.sh"
rules=$(rule_ids)

fail() { echo "multi-target ($1): $2"; shift 2; for f in "$@"; do echo "--- $f"; cat "$f"; done; exit 1; }

# build <config> <log>: every target, compiler warnings as errors, the rules' warnings left as warnings.
build() {
  dotnet build "$work/$1" -c Release --no-incremental -p:TreatWarningsAsErrors=true \
    "-p:WarningsNotAsErrors=${rules// /%3B}" > "$2" 2>&1
}

# check <config> <properties>: REPS times (default 1; each repetition is a new process, so a new order of the rules, which
# the rule-pair tests cover by trying both orders of every pair on one site), from fresh sources, `dotnet format` twice. The second run must
# change nothing, and every repetition must end with the same bytes: dotnet format takes the rules in the order of a
# hash set of their IDs, which changes from one process to the next. TPL0019 writes every StartNew and ContinueWith
# in its four-part form (TaskScheduler.Current), so the expectations below name that form. Every target is built with warnings as errors
# after the first run of the first repetition (later ones are byte-identical).
check() {
  local config=$1 project="$work/$1"
  mkdir -p "$project"
  # The rules off by default or suggestions (which a build does not print) raised; TPL0012 speaks on the members the
  # sources mark [HotPath].
  { printf 'root = true\n[*.cs]\n'; for id in $(below_warning_ids); do echo "dotnet_diagnostic.$id.severity = warning"; done
    echo "tpl_practices.TPL0012.required_attributes = HotPath"; } > "$project/.editorconfig"
  consumer_project "$project/MultiTarget.csproj" "$feed" "$work/packages" \
    "<TargetFrameworks>netstandard2.0;net10.0</TargetFrameworks>$2<WarningsAsErrors>nullable</WarningsAsErrors>" \
    '<PackageReference Include="System.Threading.Tasks.Extensions" Version="4.5.4" Condition="'"'"'$(TargetFramework)'"'"' == '"'"'netstandard2.0'"'"'" />'
  cp "$sources"/*.cs "$project/"
  build "$config" "$work/$config-before.log" || fail "$config" "the sources do not build before any fix" "$work/$config-before.log"
  for rep in $(seq 1 "${REPS:-1}"); do
    rm -f "$project"/*.cs
    cp "$sources"/*.cs "$project/"
    dotnet format analyzers "$project/MultiTarget.csproj" --diagnostics $rules --severity info -v q
    rm -rf "$work/$config-run1" && mkdir -p "$work/$config-run1" && cp "$project"/*.cs "$work/$config-run1/"
    if [ "$rep" = 1 ]; then
      build "$config" "$work/$config-1.log" || fail "$config" "the fix run broke the build" "$work/$config-1.log" "$project"/*.cs
    fi
    dotnet format analyzers "$project/MultiTarget.csproj" --diagnostics $rules --severity info -v q
    for f in "$work/$config-run1"/*.cs; do
      cmp -s "$f" "$project/$(basename "$f")" || { diff -u "$f" "$project/$(basename "$f")" | head -40; fail "$config" "repetition $rep: a second dotnet format run changed $(basename "$f")"; }
    done
    if [ "$rep" = 1 ]; then
      rm -rf "$work/$config-first" && cp -r "$work/$config-run1" "$work/$config-first"
    else
      for f in "$work/$config-first"/*.cs; do
        cmp -s "$f" "$project/$(basename "$f")" || { diff -u "$f" "$project/$(basename "$f")" | head -40; fail "$config" "repetition $rep gave another $(basename "$f") than repetition 1"; }
      done
    fi
  done
  # Every repetition ended in the bytes of the first, which the second run left as they were and which built after
  # the first run: that build's warnings are what stays without a fix.
  local left; left=$(grep -oE "[A-Za-z]+\.cs\([0-9]+,[0-9]+\): warning TPL[0-9]+" "$work/$config-1.log" | sort -u | tr '\n' ' ' || true)
  echo "multi-target ($config): ${REPS:-1} repetition(s) of two dotnet format runs gave the same bytes, the second run changed nothing, both targets build; left without a fix: ${left:-nothing}"
}

expect() { # <config> <file> <text that must be there>
  grep -qF -- "$3" "$work/$1/$2" || fail "$1" "$2 lacks: $3" "$work/$1/$2"
}
expect_before() { # <config> <file> <text> <text that must come on a later line>
  local a b
  a=$(grep -nF -- "$3" "$work/$1/$2" | head -n 1 | cut -d: -f1)
  b=$(grep -nF -- "$4" "$work/$1/$2" | head -n 1 | cut -d: -f1)
  [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] || fail "$1" "$2: '$3' is not above '$4'" "$work/$1/$2"
}
expect_not() { # <config> <file> <text that must be gone>
  ! grep -qF -- "$3" "$work/$1/$2" || fail "$1" "$2 still has: $3" "$work/$1/$2"
}

# The two configurations share nothing but the restore folder: run side by side, the 2-core CI machine's second core
# is busy while the other's dotnet format loads its workspace: 153 s against 210 s one after the other (2026-11-26).
check legacy '<Nullable Condition="'"'"'$(TargetFramework)'"'"' == '"'"'net10.0'"'"'">enable</Nullable>' &
legacy=$!
# One repetition each keeps the step inside CI's time on a slow day (a second took 54 s more on 2026-12-02);
# REPS=2 repeats both in a new process, with a new order of the rules.
check modern '<LangVersion>latest</LangVersion><Nullable>enable</Nullable>' &
modern=$!
wait $legacy || exit 1
wait $modern || exit 1

for config in legacy modern; do
  # Sites that only one target compiles are fixed too; Targets.cs has no field, so its new fields take the style of
  # the project's other static fields (s_: Hostile.cs, PassThroughs.cs), not its instance fields' _camelCase
  # (Ctors.cs), and Hostile.cs's own s_ field names its holder's.
  expect $config Targets.cs "Modern() => s_int4242Task;"
  expect $config Targets.cs "Legacy() => s_boolTrueTask;"
  # The async wait's await is the light bulb's alone (it lets the caller run on): dotnet format leaves it.
  expect $config Targets.cs "((IAsyncResult)task).AsyncWaitHandle.WaitOne();"
  # TPL0002's awaits stop at the first fault where the chain ran on: a light-bulb fix only, so the chains stay.
  expect $config Chains.cs "public Task<string> Flow() => Number().ContinueWith(t => Describe(t.Result)).Unwrap();"
  # The multi-line call keeps its other lines.
  expect $config Closures.cs "                TaskScheduler.Default);"
  # ValueTask<T> where both targets have it and every call awaits; Task<T> where one target's #if branch keeps the task.
  expect $config ValueTasks.cs "private async ValueTask<string> LookupAsync(int key)"
  expect $config ValueTasks.cs "private async Task<string> KeptAsync(int key)"
  expect $config ValueTasks.cs "internal async ValueTask<string> FindAsync(int key)"
  # AttachedToParent goes only where it did nothing.
  expect $config Attach.cs "TaskCreationOptions.LongRunning, TaskScheduler.Current));"
  expect $config Attach.cs "CancellationToken.None, TaskCreationOptions.AttachedToParent, TaskScheduler.Current);"
  # The constructor's plain operations, in C# 7.3 too; the lock another member pairs with stays.
  expect $config Ctors.cs "_created++;"
  expect $config Ctors.cs "lock (_gate)"
  # The hostile shapes: the cached field in a holder class, out of the initializers' order; the chain is TPL0002's (not
  # TPL0001's), left to the light bulb with its comments; the loop moved once; the timer still captured; the lock that
  # differs by target kept.
  expect $config Hostile.cs "private static Task<long> First() => CachedTasks.s_long42Task;"
  expect_before $config Hostile.cs "private static class CachedTasks" "internal static readonly Task<long> s_long42Task = Task.FromResult(42L);"
  expect $config Hostile.cs "// parse first"
  expect $config Hostile.cs "/* then add */"
  expect $config Hostile.cs ".ContinueWith(t => Task.FromResult(t.Result + offset)) /* then add */ .Unwrap();"
  expect $config Hostile.cs "await Task.Run(() =>"
  expect $config Hostile.cs "timer?.Dispose();"
  expect $config Hostile.cs "            lock (_gate)"
  # Trivial continuations run synchronously, their other option kept.
  expect $config Continuations.cs "TaskContinuationOptions.OnlyOnRanToCompletion | TaskContinuationOptions.ExecuteSynchronously,"
  # The hot paths' slow paths moved out: the catch on both targets, the lock for netstandard2.0's sake.
  expect $config HotPaths.cs "return LengthSlow(key);"
  expect $config HotPaths.cs "return TotalSlow();"
  expect $config HotPaths.cs "private static T FirstSlow<T>(List<T> items, T fallback)"
  expect $config HotPaths.cs "return GetSlow(index);"
  expect $config HotPaths.cs "[MethodImpl(MethodImplOptions.NoInlining)]"
  # TPL0013's fix moves continuations off the completer's thread, which code can rely on: it is a light-bulb fix only,
  # so dotnet format leaves every TaskCompletionSource as written.
  expect $config Promises.cs "new TaskCompletionSource<string>(/* who waits */ this);"
  expect $config Promises.cs "_stopped = new TaskCompletionSource<bool>(TaskCreationOptions.None);"
  expect_not $config Promises.cs "RunContinuationsAsynchronously"
  expect $config Continuations.cs "var done = new TaskCompletionSource<int>();"
  # Delegate tasks of available values become completed tasks, each #if branch's too; the awaits of completed tasks
  # become their values where something else is awaited, and the only await stays.
  expect $config Values.cs "return Task.FromResult(cached); // the cached entry"
  expect $config Values.cs "return Task.FromResult(_fallback);"
  expect $config Values.cs "public Task Flush() => Task.CompletedTask;"
  expect $config Values.cs "public Task<object> Boxed(int value) => Task.FromResult<object>(value);"
  expect $config Values.cs "var header = prefix;"
  expect_not $config Values.cs "await Task.CompletedTask;"
  expect $config Values.cs "public Task<string> Only(string text) => Task.FromResult(text);"
  # State overloads found by shape: fixed where every target that compiles the site has the overload.
  expect $config StateOverloads.cs "public int Shared(string key, int factor) => _cache.GetOrAdd(key, k => k.Length * factor);"
  expect_not $config StateOverloads.cs "Work.Run(() => a + b)"
  # Pass-through async methods return the task; one whose argument runs code keeps its await.
  expect $config PassThroughs.cs "public Task<int> SendAsync(string message) => SendAsync(message, CancellationToken.None); // forwards"
  expect $config PassThroughs.cs "            return WriteAsync(reason, CancellationToken.None);"
  expect $config PassThroughs.cs "public Task LogAsync(string line) => s_journal.WriteAsync(line);"
  expect $config PassThroughs.cs "public Task NoteAsync(string line) => _journal.WriteAsync(line);"
  expect $config PassThroughs.cs "public async Task<int> SendTrimmedAsync(string message) => await SendAsync(message.Trim(), CancellationToken.None);"
  # Timer loops: a PeriodicTimer where every target that compiles the loop has one and the passes only wait; a pass
  # that does work keeps its delay (the timer would change its rhythm: a light-bulb fix only).
  expect $config Timers.cs "while (!token.IsCancellationRequested) { _polls++; await Task.Delay(1000); }"
  expect $config Timers.cs "using var timer = new PeriodicTimer(TimeSpan.FromSeconds(2));"
  expect $config Timers.cs "await timer.WaitForNextTickAsync(token);"
  expect $config Timers.cs "await Task.Delay(TimeSpan.FromSeconds(1), token);"
  expect $config Timers.cs "await Task.Delay(TimeSpan.FromMilliseconds(500), token);"
  expect_not $config Timers.cs "new PeriodicTimer(TimeSpan.FromSeconds(1))"
  expect $config Timers.cs "CancellationTokenSource.CreateLinkedTokenSource(token)"
  expect $config Timers.cs "first = await Task.WhenAny(work, Task.Delay(1000, delayCancellation.Token));"
  expect $config Timers.cs "var winner = await Task.WhenAny(work, Task.Delay(100, delayCancellation"
  expect $config Timers.cs "return winner == work;"
  expect $config Timers.cs "CancellationTokenSource.CreateLinkedTokenSource(source.Token)"
  expect $config Timers.cs "Task.WhenAny(Task.Delay(100, delayCancellation.Token), Task.Delay(5000, delayCancellation.Token), work);"
  expect $config Timers.cs "await Task.WhenAny(work, Task.Delay(400, delayCancellation.Token));"
  expect $config Timers.cs "var winner = Task.WaitAny(work, Task.Delay(250, delayCancellation"
  expect $config Timers.cs "if (winner != 0)"
  expect $config Timers.cs "                await Task.Delay(500);"
  expect $config Timers.cs "await Task.WhenAny(work, Task.Delay(TimeSpan.FromMilliseconds(300), clock, delayCancellation.Token));"
  # A second continuation is reported and left alone (no rule fixes it).
  expect $config Continued.cs "            work.ContinueWith(t => Console.WriteLine(t.Id), CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current);"
done
for config in legacy modern; do
  expect_not $config Hostile.cs "timer = new Timer(static"
done
# The callback fixes take the form netstandard2.0 compiles (the object overload), in C# 8+ (legacy: no fix, as TPL0001).
# The file writes two statements on one line itself (Later's lambda), so the fix's block may too.
expect modern Callbacks.cs "ThreadPool.QueueUserWorkItem(static state => { var item = (int)state!; Console.WriteLine(item); }, item)"
expect modern Callbacks.cs ", this, Timeout.Infinite, Timeout.Infinite)"
expect modern StateOverloads.cs "_cache.GetOrAdd(key, static (k, factor) => k.Length * factor, factor);"
expect modern StateOverloads.cs "public int Length(string name) => _cache.GetOrAdd(name, static name => name.Length + 1);"
expect legacy StateOverloads.cs "public int Length(string name) => _cache.GetOrAdd(name, nameKey => nameKey.Length + 1);"
expect_before modern StateOverloads.cs "Work.Run(static state =>" "            var (a, b) = state;"
expect modern StateOverloads.cs "        }, (a, b));"
expect modern Callbacks.cs "TaskScheduler.Default).Unwrap()"
expect legacy Callbacks.cs "token.Register(() => Console.WriteLine(name))"
# The completed source that queues its awaiters: captured in C# 7.3 (TPL0001 offers no fix there), passed as the state
# in C# 8+; synchronous in both. The one that runs them inline gets the scheduler only (TPL0019), not the flag.
expect_before legacy Continuations.cs "t => queued.TrySetResult(t.Result)," "                TaskContinuationOptions.ExecuteSynchronously,"
expect legacy Continuations.cs "done.TrySetResult(t.Result), CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Current);"
# Several arguments follow the state callback's block, so the arguments are laid out one a line.
expect_before modern Continuations.cs "static (t, state) =>" "var queued = (TaskCompletionSource<int>)state!;"
expect_before modern Continuations.cs "var queued = (TaskCompletionSource<int>)state!;" "                queued,"
expect_before modern Continuations.cs "                queued," "                TaskContinuationOptions.ExecuteSynchronously,"
expect_before modern Continuations.cs "var done = (TaskCompletionSource<int>)state!;" "                TaskContinuationOptions.None,"
# C# 7.3 cannot read the state back without a nullable warning on net10.0: TPL0001 offers no fix there.
expect legacy Closures.cs "() => Console.WriteLine(message),"
# With C# 8+ everywhere it does, nested lambdas included (on the second run).
expect modern Closures.cs "static state =>"
expect_not modern Closures.cs "StartNew(() =>"
echo "multi-target: passed"
