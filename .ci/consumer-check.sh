#!/usr/bin/env bash
# Consumes the packed nupkg the way a user does, from outside the repository:
#   1. a net10.0 + netstandard2.0 project references TplPractices.Analyzers by version from a local folder;
#   2. its build must report each rule exactly where expected for each target (the advice differs);
#   3. its SARIF logs, one per target as docs/configuration.md shows, keep each target's diagnostics, and merge;
#   4. `dotnet format analyzers` must rewrite the fixable sites, and the result must build with no errors and only
#      the diagnostics the docs say get no fix.
# Usage: .ci/consumer-check.sh <folder-with-nupkg>
set -euo pipefail
feed=$(cd "$1" && pwd)
version=$(ls "$feed"/TplPractices.Analyzers.*.nupkg | head -n 1 | sed -E 's/.*TplPractices\.Analyzers\.(.*)\.nupkg/\1/')
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/consumer-project.sh"
consumer_project "$work/Consumer/Consumer.csproj" "$feed" "$work/packages" \
  '<TargetFrameworks>net10.0;netstandard2.0</TargetFrameworks><LangVersion>latest</LangVersion><Nullable>enable</Nullable>
    <ErrorLog>$(MSBuildProjectDirectory)/$(MSBuildProjectName).$(TargetFramework).sarif,version=2.1</ErrorLog>'
cat > "$work/Consumer/Service.cs" <<'CS'
using System.Threading.Tasks;

namespace Consumer;

public class Service
{
    public Task<int> Answer() => Task.FromResult(42);          // both targets
    public Task<int> AnswerAgain() => Task.FromResult(42);     // both targets, same cached field
    public Task Flush() => Task.FromResult("done");            // both targets, Task.CompletedTask
    public Task<bool> Ready() => Task.FromResult(true);        // netstandard2.0 only
    public Task<int> Count(int n) => Task.FromResult(n);       // never: not a constant
}
CS
cat > "$work/Consumer/Waits.cs" <<'CS'
using System;
using System.IO;
using System.Threading.Tasks;

namespace Consumer;

public class Waits
{
    public bool Block(Task task) => ((IAsyncResult)task).AsyncWaitHandle.WaitOne(100);  // TPL0004

    public async Task<string> ThenContinue(Task<int> task)                             // TPL0004, awaited in the light bulb only
    {
        ((IAsyncResult)task).AsyncWaitHandle.WaitOne();
        await Task.Yield();
        return task.Status.ToString();
    }

    public int Apm(Stream stream, byte[] buffer)                                        // never: a real APM result
    {
        var pending = stream.BeginRead(buffer, 0, buffer.Length, null, null);
        pending.AsyncWaitHandle.WaitOne();
        return stream.EndRead(pending);
    }
}
CS
cat > "$work/Consumer/Closures.cs" <<'CS'
using System;
using System.Threading.Tasks;

namespace Consumer;

public class Closures
{
    public Task Log(string message) => Task.Factory.StartNew(() => Console.WriteLine(message));   // TPL0001

    public Task<int> Next(Task<int> task, int step) => task.ContinueWith(_ => task.Result + step); // TPL0001

    public Task Quiet() => Task.Factory.StartNew(static () => Console.WriteLine("quiet"));        // never: no capture
}
CS
cat > "$work/Consumer/Chains.cs" <<'CS'
using System.Threading.Tasks;

namespace Consumer;

public class Chains
{
    static Task Step() => Task.Delay(1);
    static Task<int> Number() => Task.Run(() => System.Math.Abs(-20));
    static Task<string> Describe(int n) => Task.Run(() => "n=" + n);

    public Task Three() => Step().ContinueWith(_ => Step()).Unwrap().ContinueWith(_ => Step()).Unwrap();  // TPL0002, light bulb only
    public Task<string> Flow() => Number().ContinueWith(t => Describe(t.Result)).Unwrap();                 // TPL0002, light bulb only
    public Task<int> Static() { return TaskExtensions.Unwrap(Number().ContinueWith(t => Number())); }     // TPL0002, light bulb only
    public Task Faults() => Step().ContinueWith(t => t.IsFaulted ? Step() : Task.Delay(2)).Unwrap();        // TPL0002, no fix

    public Task Loop(int n)                                                                              // TPL0002, no fix
    {
        Task current = Step();
        for (var i = 0; i < n; i++) current = current.ContinueWith(_ => Step()).Unwrap();
        return current;
    }

    public Task Started() => Task.Factory.StartNew(() => Step()).Unwrap();                                 // never: no ContinueWith
    public Task<int> Plain() => Number().ContinueWith(t => t.Result + 1);                                  // never: no Unwrap
}
CS
cat > "$work/Consumer/Loops.cs" <<'CS'
using System.IO;
using System.Threading.Tasks;

namespace Consumer;

public class Loops
{
    static int Score(int i) => i * 31 % 7;
#pragma warning disable CS1998
    static async Task<int> Lookup(int key) => key % 2;
#pragma warning restore CS1998

    public async Task<int> ScoreAll(int[] items)                       // TPL0005 (a), fixed
    {
        var total = 0;
        foreach (var item in items) total += await Task.Run(() => Score(item));
        return total;
    }

    public async Task<int> Sum(int[] items, Stream log)                // TPL0005 (b), fixed
    {
        var total = 0;
        foreach (var item in items) total += await Task.FromResult(item);
        await log.FlushAsync();
        return total;
    }

    public async Task<int> LookupAll(int count)                        // TPL0005 (c), no fix
    {
        var found = 0;
        for (var i = 0; i < count; i++) found += await Lookup(i);
        return found;
    }

    public async Task Copy(Stream source, Stream target, Task done)    // never: I/O, polling, Task.Yield
    {
        var buffer = new byte[4096];
        int read;
        while ((read = await source.ReadAsync(buffer, 0, buffer.Length)) > 0) await target.WriteAsync(buffer, 0, read);
        while (!done.IsCompleted) { await Task.Delay(100); await Task.Yield(); }
    }

#if NET
    public async Task<int> Stream(System.Collections.Generic.IAsyncEnumerable<int> values)  // never: await foreach
    {
        var total = 0;
        await foreach (var value in values) total += value;
        return total;
    }
#endif
}
CS

cat > "$work/Consumer/Callbacks.cs" <<'CS'
using System;
using System.Threading;
using System.Threading.Tasks;

namespace Consumer;

public class Callbacks
{
    public CancellationTokenRegistration OnCancel(CancellationToken token, string name) =>
        token.Register(() => Console.WriteLine(name));                                     // TPL0006
    public bool Enqueue(int item) => ThreadPool.QueueUserWorkItem(_ => Console.WriteLine(item));   // TPL0006
    public Timer Every(int period) => new Timer(_ => Console.WriteLine(period), null, 0, period);  // TPL0006
    public void Post(SynchronizationContext context, string text) => context.Post(_ => Console.WriteLine(text), "state");  // never: a real state
}
CS
cat > "$work/Consumer/Runs.cs" <<'CS'
using System.Threading.Tasks;

namespace Consumer;

public class Runs
{
    public Task<int> Square(int x) => Task.Run(() => x * x);                     // TPL0007, where .editorconfig turns it on
    public Task<int> Later(int d) => Task.Run(async () => { await Task.Delay(d); return d; });  // TPL0007
}
CS
cat > "$work/Consumer/ValueTasks.cs" <<'CS'
using System.Collections.Generic;
using System.Threading.Tasks;

namespace Consumer;

public class ValueTasks
{
    private readonly Dictionary<int, string> _cache = new();

    // TPL0008 on net10.0 only: netstandard2.0 has no ValueTask<T> here (no System.Threading.Tasks.Extensions), so no fix.
    private async Task<string> LookupAsync(int key)
    {
        if (_cache.TryGetValue(key, out var hit)) return hit;
        await Task.Yield();
        return "loaded";
    }

    public async Task<string> Both() => await LookupAsync(1) + await LookupAsync(2).ConfigureAwait(false);
}
CS
cat > "$work/Consumer/Attach.cs" <<'CS'
using System.Threading.Tasks;

namespace Consumer;

public class Attach
{
    public Task Parent() => Task.Factory.StartNew(() => { Task.Factory.StartNew(() => { }, TaskCreationOptions.AttachedToParent); });  // TPL0009, no fix
    public Task InRun() => Task.Run(() => Task.Factory.StartNew(() => Work(), TaskCreationOptions.AttachedToParent));                  // TPL0009, fixed
    private static void Work() { }
}
CS
cat > "$work/Consumer/Ctors.cs" <<'CS'
using System.Threading;

namespace Consumer;

public class Ctors
{
    private readonly object _gate = new object();
    private int _created;
    private int _value;

    public Ctors(int start)
    {
        Interlocked.Increment(ref _created);    // TPL0010, fixed: no other member names _created
        lock (_gate) { _value = start; }        // TPL0010, no fix: Next takes the same lock
    }

    public int Next() { lock (_gate) { return ++_value; } }
}
CS
cp "$work/Consumer/Runs.cs" "$work/Consumer/RunsOff.cs"; sed -i 's/class Runs/class RunsOff/' "$work/Consumer/RunsOff.cs"   # TPL0007 off: never

# Suppressions the compiler must honour: #pragma, [SuppressMessage], generated code, .editorconfig severity.
cat > "$work/Consumer/Suppressed.cs" <<'CS'
using System.Diagnostics.CodeAnalysis;
using System.Threading.Tasks;

namespace Consumer;

public class Suppressed
{
#pragma warning disable TPL0003
    public Task<int> Pragma() => Task.FromResult(1000);
#pragma warning restore TPL0003

    [SuppressMessage("Performance", "TPL0003:Cache the task of a constant result")]
    public Task<int> Attribute() => Task.FromResult(1001);
}
CS
cat > "$work/Consumer/Generated.g.cs" <<'CS'
// <auto-generated/>
namespace Consumer;

public class Generated
{
    public System.Threading.Tasks.Task<int> Value() => System.Threading.Tasks.Task.FromResult(1002);
}
CS
cat > "$work/Consumer/Quiet.cs" <<'CS'
namespace Consumer;

public class Quiet
{
    public System.Threading.Tasks.Task<int> Value() => System.Threading.Tasks.Task.FromResult(1003);
}
CS
cat > "$work/Consumer/.editorconfig" <<'INI'
root = true

[Quiet.cs]
dotnet_diagnostic.TPL0003.severity = none

[Strict.cs]
dotnet_diagnostic.TPL0003.severity = error

[Runs.cs]
dotnet_diagnostic.TPL0007.severity = warning

[ValueTasks.cs]
dotnet_diagnostic.TPL0008.severity = warning

[Ctors.cs]
dotnet_diagnostic.TPL0010.severity = warning
INI

echo "consumer: .editorconfig can raise a rule to an error"
cat > "$work/Consumer/Strict.cs" <<'CS'
namespace Consumer;

public class Strict
{
    public System.Threading.Tasks.Task<int> Value() => System.Threading.Tasks.Task.FromResult(1004);
}
CS
if dotnet build "$work/Consumer" -c Release --no-incremental > "$work/strict.log" 2>&1; then
  echo "consumer: the build passed although Strict.cs raises TPL0003 to an error"; exit 1
fi
grep -q "Strict.cs.*error TPL0003" "$work/strict.log" || { cat "$work/strict.log"; exit 1; }
rm "$work/Consumer/Strict.cs"

count() { { grep -E "warning $1.*TargetFramework=$2\]" "$3" || true; } | sort -u | wc -l; }
expect() { # rule target expected log
  local got; got=$(count "$1" "$2" "$4")
  echo "consumer: $1 on $2: $got (expected $3)"
  [ "$got" -eq "$3" ] || { grep "warning $1" "$4" | sort -u; exit 1; }
}

echo "consumer: build against TplPractices.Analyzers $version from $feed"
dotnet build "$work/Consumer" -c Release --no-incremental > "$work/build1.log" 2>&1 || { cat "$work/build1.log"; exit 1; }
expect TPL0003 net10.0 3 "$work/build1.log"
expect TPL0003 netstandard2.0 4 "$work/build1.log"
expect TPL0001 net10.0 2 "$work/build1.log"
expect TPL0001 netstandard2.0 2 "$work/build1.log"
expect TPL0004 net10.0 2 "$work/build1.log"
expect TPL0004 netstandard2.0 2 "$work/build1.log"
expect TPL0002 net10.0 5 "$work/build1.log"
expect TPL0002 netstandard2.0 5 "$work/build1.log"
expect TPL0005 net10.0 3 "$work/build1.log"
expect TPL0005 netstandard2.0 3 "$work/build1.log"
expect TPL0006 net10.0 3 "$work/build1.log"
expect TPL0006 netstandard2.0 3 "$work/build1.log"
expect TPL0007 net10.0 2 "$work/build1.log"
expect TPL0007 netstandard2.0 2 "$work/build1.log"
expect TPL0008 net10.0 1 "$work/build1.log"
expect TPL0008 netstandard2.0 0 "$work/build1.log"
expect TPL0009 net10.0 2 "$work/build1.log"
expect TPL0009 netstandard2.0 2 "$work/build1.log"
expect TPL0010 net10.0 2 "$work/build1.log"
expect TPL0010 netstandard2.0 2 "$work/build1.log"

echo "consumer: SARIF: one log per target, each with its own diagnostics, merged with the jq line of docs/configuration.md"
sarif_count() { jq '[.runs[].results[] | select(.ruleId == "TPL0003" and ((.suppressions // []) | length) == 0)] | length' "$1"; }  # suppressed sites are logged too
for target in "net10.0 3" "netstandard2.0 4"; do
  read -r tfm want <<<"$target"
  log="$work/Consumer/Consumer.$tfm.sarif"
  [ -f "$log" ] || { echo "consumer: no SARIF log for $tfm"; ls "$work/Consumer"; exit 1; }
  got=$(sarif_count "$log")
  echo "consumer: SARIF log of $tfm: TPL0003 $got (expected $want)"
  [ "$got" -eq "$want" ] || exit 1
done
jq -s '{"$schema": .[0]["$schema"], version: .[0].version, runs: [.[].runs[]]}' "$work"/Consumer/Consumer.*.sarif > "$work/merged.sarif"
[ "$(jq '.runs | length' "$work/merged.sarif")" -eq 2 ] && [ "$(sarif_count "$work/merged.sarif")" -eq 7 ] \
  || { echo "consumer: the merged SARIF log lost a target's run"; exit 1; }
echo "consumer: merged SARIF: 2 runs, TPL0003 7"

rules="TPL0001 TPL0002 TPL0003 TPL0004 TPL0005 TPL0006 TPL0007 TPL0008 TPL0009 TPL0010"
echo "consumer: dotnet format analyzers --diagnostics $rules --severity info"
dotnet format analyzers "$work/Consumer/Consumer.csproj" --diagnostics $rules --severity info --no-restore -v q
cat "$work/Consumer/Service.cs" "$work/Consumer/Waits.cs" "$work/Consumer/Closures.cs" "$work/Consumer/Chains.cs" "$work/Consumer/Loops.cs" \
  "$work/Consumer/Callbacks.cs" "$work/Consumer/Runs.cs" "$work/Consumer/ValueTasks.cs" "$work/Consumer/Attach.cs" "$work/Consumer/Ctors.cs"

# What is left: the sites the docs say get no fix in bulk (five TPL0002 chains: two without a fix, three whose fix is
# the light bulb's only; one TPL0004 wait an await would replace, one TPL0005 call, one TPL0009 flag and one
# TPL0010 lock per target,
# and TPL0008 on net10.0, whose netstandard2.0 copy lacks ValueTask<T>), and no compiler error.
dotnet build "$work/Consumer" -c Release --no-incremental > "$work/build2.log" 2>&1 || { cat "$work/build2.log"; exit 1; }
unfixable="Chains.cs\([0-9,]+\): warning TPL0002|Waits.cs\([0-9,]+\): warning TPL0004|Loops.cs\([0-9,]+\): warning TPL0005|ValueTasks.cs\([0-9,]+\): warning TPL0008|Attach.cs\([0-9,]+\): warning TPL0009|Ctors.cs\([0-9,]+\): warning TPL0010"
left=$({ grep -E "warning TPL[0-9]+" "$work/build2.log" || true; } | { grep -vE "$unfixable" || true; } | sort -u | wc -l)
unfixed=$({ grep -E "$unfixable" "$work/build2.log" || true; } | sort -u | wc -l)
errors=$(grep -cE ": error " "$work/build2.log" || true)
echo "consumer: after format: $left fixable TPL warnings, $unfixed unfixable TPL0002/TPL0004/TPL0005/TPL0008/TPL0009/TPL0010, $errors errors (expected 0, 19 and 0)"
[ "$left" -eq 0 ] && [ "$unfixed" -eq 19 ] && [ "$errors" -eq 0 ] || { cat "$work/build2.log"; exit 1; }
grep -qF "Task.Run(() => Task.Factory.StartNew(() => Work(), TaskCreationOptions.None))" "$work/Consumer/Attach.cs" || { echo "TPL0009's no-op flag was not removed"; exit 1; }
grep -qF "_created++;" "$work/Consumer/Ctors.cs" || { echo "TPL0010's Interlocked.Increment was not made plain"; exit 1; }
grep -qF "lock (_gate) { _value = start; }" "$work/Consumer/Ctors.cs" || { echo "TPL0010 removed a lock another member pairs with"; exit 1; }
grep -qF "private async Task<string> LookupAsync" "$work/Consumer/ValueTasks.cs" || { echo "dotnet format changed a method one target cannot change"; exit 1; }
grep -qF "public Task Three() => Step().ContinueWith(_ => Step()).Unwrap().ContinueWith(_ => Step()).Unwrap();" "$work/Consumer/Chains.cs" \
  || { echo "dotnet format applied TPL0002's light-bulb-only fix"; exit 1; }
grep -q "await Task.Run(() =>" "$work/Consumer/Loops.cs"
grep -q "total += item;" "$work/Consumer/Loops.cs"
grep -q "found += await Lookup(i);" "$work/Consumer/Loops.cs" "$work/Consumer/Loops.cs"
grep -q "Task.CompletedTask" "$work/Consumer/Service.cs"
# The blocking wait is fixed in bulk; the awaitable one is the light bulb's (the await lets the caller run on).
grep -qF "Task.WaitAny(new Task[] { task }, 100) == 0" "$work/Consumer/Waits.cs" || { echo "TPL0004's blocking wait was not fixed"; exit 1; }
grep -qF "        ((IAsyncResult)task).AsyncWaitHandle.WaitOne();" "$work/Consumer/Waits.cs" || { echo "dotnet format applied TPL0004's light-bulb-only await"; exit 1; }
grep -q "static state =>" "$work/Consumer/Closures.cs"
for kept in "Task.FromResult(1000)" "Task.FromResult(1001)"; do
  grep -qF "$kept" "$work/Consumer/Suppressed.cs" || { echo "dotnet format rewrote a suppressed site: $kept"; cat "$work/Consumer/Suppressed.cs"; exit 1; }
done
grep -qF "Task.FromResult(1003)" "$work/Consumer/Quiet.cs" || { echo "dotnet format rewrote a site the .editorconfig turned off"; exit 1; }
grep -q "pending.AsyncWaitHandle.WaitOne()" "$work/Consumer/Waits.cs"
# The state callbacks are blocks of two statements, one a line.
for line in 'token.Register(static state =>' 'var name = (string)state!;' '}, name)' 'ThreadPool.QueueUserWorkItem(static state =>' \
  'var item = (int)state!;' '}, item)'; do
  grep -qF "$line" "$work/Consumer/Callbacks.cs" || { echo "Callbacks.cs lacks: $line"; cat "$work/Consumer/Callbacks.cs"; exit 1; }
done
# Three arguments would follow the callback's block on its closing line: one argument a line instead.
grep -qF '        period);  // TPL0006' "$work/Consumer/Callbacks.cs" || { echo "Timer's arguments are not one a line"; cat "$work/Consumer/Callbacks.cs"; exit 1; }
grep -qF 'context.Post(_ => Console.WriteLine(text), "state")' "$work/Consumer/Callbacks.cs"
# Too long for one line once fixed, so the arguments are wrapped one a line.
grep -qF '        TaskScheduler.Default).Unwrap();' "$work/Consumer/Runs.cs"
grep -qF 'Task.Run(() => x * x)' "$work/Consumer/RunsOff.cs" || { echo "dotnet format rewrote TPL0007 where it is off"; exit 1; }
echo "consumer: passed"
