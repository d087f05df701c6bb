#!/usr/bin/env bash
# Writes FILES C# files of about 100 lines each into DIR: ordinary code, with each TPL rule's hits and
# near-misses mixed in, so that analyzers have realistic work. Usage: generate.sh DIR [FILES]
set -euo pipefail
dir=$1
files=${2:-1000}
mkdir -p "$dir"
for ((i = 0; i < files; i++)); do
  cat > "$dir/File$i.cs" <<CS
using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Generated.N$i;

public sealed class Worker$i
{
    private readonly List<int> _values = new() { $i, 1, 2, 3 };
    private readonly StringBuilder _log = new();
    private int _count;

    public int Sum() => _values.Where(v => v % 2 == 0).Select(v => v * $(( (i % 7) + 1 ))).Sum();

    public string Describe(int limit)
    {
        var builder = new StringBuilder();
        for (var k = 0; k < limit; k++)
        {
            if (k % 3 == 0) builder.Append("fizz");
            else if (k % 5 == 0) builder.Append("buzz");
            else builder.Append(k);
        }

        return builder.ToString();
    }

    public Dictionary<string, int> Index(IEnumerable<string> words)
    {
        var index = new Dictionary<string, int>();
        foreach (var word in words)
        {
            index[word] = index.TryGetValue(word, out var seen) ? seen + 1 : 1;
        }

        return index;
    }

    // TPL0003 hit on every target, and near-misses.
    public Task<int> Answer() => Task.FromResult(42 + $((i % 5)));
    public Task<int> Computed(int n) => Task.FromResult(n * 2);
    public Task<bool> Ready() => Task.FromResult(true);

    // TPL0001 hit, and near-misses.
    public Task Fill(ConcurrentQueue<int> queue) => Task.Factory.StartNew(() => queue.Enqueue($i));
    public Task Quiet() => Task.Factory.StartNew(static () => Console.WriteLine("quiet"));
    public Task Run(int n) => Task.Run(() => Console.WriteLine(n));

    // TPL0004 hit, and a real APM result that must stay silent.
    public bool Block(Task task) => ((IAsyncResult)task).AsyncWaitHandle.WaitOne(10);
    public int Read(Stream stream, byte[] buffer)
    {
        var pending = stream.BeginRead(buffer, 0, buffer.Length, null, null);
        pending.AsyncWaitHandle.WaitOne();
        return stream.EndRead(pending);
    }

    public async Task<int> PipelineAsync(IEnumerable<int> source, CancellationToken token)
    {
        var total = 0;
        foreach (var item in source)
        {
            token.ThrowIfCancellationRequested();
            total += await Compute(item).ConfigureAwait(false);
        }

        _count++;
        _log.AppendLine(total.ToString());
        return total;
    }

    private static async Task<int> Compute(int item)
    {
        await Task.Yield();
        return item switch
        {
            < 0 => -item,
            0 => 1,
            _ => item * item,
        };
    }

    public IEnumerable<string> Lines(string text)
    {
        using var reader = new StringReader(text);
        string line;
        while ((line = reader.ReadLine()) != null)
        {
            if (line.Length == 0)
            {
                continue;
            }

            yield return line.Trim();
        }
    }

    public override string ToString() => \$"Worker$i({_count}, {_values.Count})";
}
CS
done
