namespace TplPractices.Analyzers.Tests.Gauntlet;

/// <summary>
/// The shared layer's layout of what a rewrite wrote (Layout, MovedLines, BodyBlocks, LongLines): code it moved keeps
/// its continuation lines, an argument it adds to a list written one a line gets its own, a line it makes too long is
/// wrapped; the author's own lines and strings are left as they were, and a block comment's lines move with its code.
/// </summary>
public sealed class LayoutTests
{
    private const string Helpers = """

            static int Add(int x, int y) => x + y;
            static int Add3(int x, int y, int z) => x + y + z;
        }
        """;

    [Fact]
    public async Task MovedCall_KeepsItsArgumentsAlignedUnderIt()
    {
        var code = Method("""
                return Add(Add(a,
                               b), 1);
            """);
        var result = await SharedLayerTests.RewriteAsync(code, "return Add(Add(a,", "return Add3(1, Add(a,");
        Assert.Contains("        return Add3(1, Add(a,\n                           b), 1);", result, StringComparison.Ordinal);
    }

    [Fact]
    public async Task MovedStatement_KeepsItsIndentedContinuation()
    {
        var code = Method("""
                return Add(
                    a, b);
            """);
        var result = await SharedLayerTests.RewriteAsync(code, "        return Add(\n            a, b);", "        if (a > 0)\n        {\n            return Add(\n            a, b);\n        }\n\n        return 0;");
        Assert.Contains("            return Add(\n                a, b);", result, StringComparison.Ordinal);
    }

    [Fact]
    public async Task ArgumentAddedToAListWrittenOneALine_GetsALineOfItsOwn()
    {
        var code = Method("""
                return Add3(a,
                            b,
                            1);
            """);
        var result = await SharedLayerTests.RewriteAsync(code, "Add3(a,\n                    b,\n                    1)", "Add3(a, 0,\n                    b)");
        Assert.Contains("        return Add3(a,\n                    0,\n                    b);", result, StringComparison.Ordinal);
    }

    /// <summary>
    /// An argument over two lines that the rewrite puts a new argument before keeps its second line under its first
    /// (MongoDB's <c>OnlyOnFaulted |</c> then <c>ExecuteSynchronously</c>): the line went right by the width of the
    /// argument TPL0019 wrote, which had shared its line for a moment before getting a line of its own.
    /// </summary>
    [Fact]
    public async Task AnArgumentOverTwoLines_KeepsItsSecondLineUnderItsFirst()
    {
        const string code = """
            using System.Threading.Tasks;

            public static class Tasks
            {
                public static void IgnoreExceptions(this Task task)
                {
                    task.ContinueWith(t => { var ignored = t.Exception; },
                        TaskContinuationOptions.OnlyOnFaulted |
                        TaskContinuationOptions.ExecuteSynchronously);
                }
            }
            """;
        var result = await FixOnEveryTargetAsync(code, DiagnosticIds.ExplicitScheduler);
        Assert.Contains("""
                    task.ContinueWith(t => { var ignored = t.Exception; },
                        CancellationToken.None,
                        TaskContinuationOptions.OnlyOnFaulted |
                        TaskContinuationOptions.ExecuteSynchronously,
                        TaskScheduler.Current);
            """, result, StringComparison.Ordinal);
    }

    /// <summary>
    /// A line comment after the list's <c>)</c> on its last argument's line speaks of that line: where the rewrite adds
    /// an argument after it on a line of its own, the comment stays beside the argument (found on Ocelot, whose
    /// "do not cancel" note went below the arguments TPL0007 added after its token), and a second run changes nothing.
    /// </summary>
    [Fact]
    public async Task CommentAfterTheListsParenthesis_StaysBesideItsArgument()
    {
        var code = Method("""
                return Add(
                    a,
                    b) // the second
                    + 1;
            """);
        var result = await SharedLayerTests.RewriteAsync(code, "Add(\n            a,\n            b) // the second", "Add3(\n            a,\n            b, 0) // the second");
        Assert.Contains("        return Add3(\n            a,\n            b, // the second\n            0)\n            + 1;", result, StringComparison.Ordinal);
        Assert.Equal(result, await SharedLayerTests.RewriteAsync(result, "unchanged", "unchanged"));
    }

    /// <summary>
    /// The same comment after the <c>;</c> that ends the statement on that line (Polly's timeout engine: <c>combinedToken);
    /// // only stops the start</c>) stays beside its argument too, where TPL0007 added arguments after the token.
    /// </summary>
    [Fact]
    public async Task CommentAfterTheStatementsSemicolon_StaysBesideItsArgument()
    {
        var code = Method("""
                var sum = Add(
                    a,
                    b);   // the second
                return sum;
            """);
        var result = await SharedLayerTests.RewriteAsync(code, "Add(\n            a,\n            b);   // the second", "Add3(\n            a,\n            b, 0);   // the second");
        Assert.Contains("        var sum = Add3(\n            a,\n            b, // the second\n            0);\n        return sum;", result, StringComparison.Ordinal);
        Assert.Equal(result, await SharedLayerTests.RewriteAsync(result, "unchanged", "unchanged"));
    }

    /// <summary>
    /// A list the author mixed (two arguments on the first line, one on the next) keeps its lines when the rewrite adds
    /// no argument to it: a change to its last argument; a rewrite of the receiver on its first line (a state fix's
    /// <c>self.</c>, found in Akka.NET); names rewritten inside its arguments (<c>self.</c> before each member read, found
    /// on Proto.Actor's endpoint manager: <c>new ServerEndpoint(_system, _remoteConfig, v, _channelProvider,</c> then two
    /// more on the next line), where it went one argument a line.
    /// </summary>
    [Theory]
    [InlineData("1);", "2);", "return Add3(a, b,\n            2);")]
    [InlineData("return Add3(a, b,", "return C.Add3(a, b,", "return C.Add3(a, b,\n            1);")]
    [InlineData("return Add3(a, b,\n            1);", "return Add3(a + 1, b + 1,\n            1 + 1);", "return Add3(a + 1, b + 1,\n            1 + 1);")]
    public async Task ListTheAuthorMixed_StaysWhenTheRewriteAddsNoArgument(string from, string to, string expected)
    {
        var code = Method("""
                return Add3(a, b,
                    1);
            """);
        var result = await SharedLayerTests.RewriteAsync(code, from, to);
        Assert.Contains("        " + expected, result, StringComparison.Ordinal);
    }

    [Fact]
    public async Task LineTheRewriteMadeTooLong_IsWrapped_AndTheAuthorsLongLineIsNot()
    {
        var authors = "    var longest = " + string.Join(" + ", Enumerable.Repeat("Add(a, b)", 16)) + ";\n";
        var code = Method(authors + "    return Add(a, b);\n");
        var longCall = "Add3(" + string.Join(", ", Enumerable.Repeat("Add(Add(a, b), Add(b, a))", 2)) + ", Add3(a + b + a + b + a + b + a + b + a + b, longest, longest + longest + longest + longest))";
        var result = await SharedLayerTests.RewriteAsync(code, "return Add(a, b);", "return " + longCall + ";");
        Assert.Contains("    " + authors, result, StringComparison.Ordinal);
        Assert.Contains("        return Add3(\n            Add(Add(a, b), Add(b, a)),\n            Add(Add(a, b), Add(b, a)),\n            Add3(", result, StringComparison.Ordinal);
        Assert.All(result.Split('\n').Where(l => !l.Contains("longest =", StringComparison.Ordinal)), l => Assert.True(l.Length <= 160, l));
    }

    /// <summary>
    /// An <c>if</c> whose block shares its line, made too long by a rewrite (a state fix's <c>self.</c> in an author's
    /// one-line lambda, found in the GitHub Actions runner), gets its block on lines of its own: the break went inside
    /// the condition's call (<c>Cancel(</c> and its argument on the next line, the block still beside it). Before the
    /// lists in the condition, and an <c>if</c> with an <c>else</c> keeps its line.
    /// </summary>
    [Fact]
    public async Task AnIfTheRewriteMadeTooLong_GetsItsBlockOnLines()
    {
        var code = Method("""
                if (a > b) { a = Add(a, b); }
                if (a < b) { a = Add(b, a); } else { a = b; }
                return a;
            """);
        var longBody = "a = Add(Add(a, b), Add(b, a)) + nameof(Add3).Length * nameof(Add).Length + nameof(M).Length * nameof(C).Length + a * b * a * b * a * b * a";
        var result = await SharedLayerTests.RewriteAsync(code, "if (a > b) { a = Add(a, b); }", "if (Add(a, b) > Add(b, a)) { " + longBody + "; }");
        Assert.Contains("        if (Add(a, b) > Add(b, a))\n        {\n            " + longBody + ";\n        }\n", result, StringComparison.Ordinal);
        Assert.Contains("        if (a < b) { a = Add(b, a); } else { a = b; }\n", result, StringComparison.Ordinal);
    }

    /// <summary>
    /// The line the state fixes write to unpack their state, made long by the author's comments they carry (the
    /// gauntlet's comments context): its value goes to the next line, as a variable's does.
    /// </summary>
    [Fact]
    public async Task DeconstructionTheRewriteMadeTooLong_PutsItsValueOnTheNextLine()
    {
        var code = Method("    return Add(a, b);\n");
        var unpack = "var (/* the first of them, as given */ first, /* the second of them, as given */ second) = /* both */ ((int /* first */, int /* second */))(a, b); // as they came";
        var result = await SharedLayerTests.RewriteAsync(code, "return Add(a, b);", unpack + "\n        return Add(first, second);");
        Assert.Contains(
            "        var (/* the first of them, as given */ first, /* the second of them, as given */ second) = /* both */\n            ((int /* first */, int /* second */))(a, b); // as they came",
            result,
            StringComparison.Ordinal);
    }

    /// <summary>
    /// A state fix rebuilds the lambda, and formatting it spaced the author's code inside as the formatter would
    /// (<c>if(x&gt;1)</c> became <c>if (x &gt; 1)</c>, found in Akka.NET); the spaces between tokens the fix kept stay the
    /// author's. The lines the fix wrote are spaced by the formatter.
    /// </summary>
    [Fact]
    public async Task AuthorsSpacingInsideARebuiltLambda_Stays()
    {
        const string code = """
            using System;
            using System.Threading.Tasks;

            public sealed class Counter
            {
                private int _total;

                public Task Add(int x) => Task.Factory.StartNew(() =>
                {
                    if(x>1) { Console.WriteLine( x ); }
                    _total+=x;
                    Console.WriteLine(x+_total);
                });
            }
            """;
        var result = await FormatRun.FixAsync(GauntletSetup.Single, code, DiagnosticIds.UseTaskState);
        Assert.Contains("\n        if(x>1) { Console.WriteLine( x ); }\n", result, StringComparison.Ordinal);
        Assert.Contains("var (x, self) = ((int, Counter))state!;", result, StringComparison.Ordinal);
        Assert.Contains("self._total+=x;", result, StringComparison.Ordinal);

        // A name the fix qualifies takes the author's spacing before it, not the formatter's ("x+ self._total"), also in
        // a project of two targets (TPL0001 gives no fix at C# 7.3 beside nullable annotations).
        Assert.Contains("Console.WriteLine(x+self._total);", result, StringComparison.Ordinal);
        var twoTargets = await FormatRun.FixAsync(GauntletSetup.Modern, code, DiagnosticIds.UseTaskState);
        Assert.Contains("Console.WriteLine(x+self._total);", twoTargets, StringComparison.Ordinal);
        Assert.Contains("\n        if(x>1) { Console.WriteLine( x ); }\n", twoTargets, StringComparison.Ordinal);
    }

    /// <summary>
    /// A lambda block the author indented one level from the line the lambda starts on, with the arguments after it at
    /// that depth (NATS.Client's heartbeat Timer), stays that deep when a fix rebuilds the lambda: the formatter put the
    /// rebuilt block at the line's own indentation, shallower than the arguments below it. A block at the line's own
    /// indentation stays there.
    /// </summary>
    [Fact]
    public async Task ALambdaBlockIndentedFromItsLine_StaysThatDeep()
    {
        const string code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public sealed class Heartbeat
            {
                private Timer _timer;
                private long _period = 1000;

                public void Start()
                {
                    _timer = new Timer(state =>
                        {
                            if (_period > 10)
                            {
                                Console.WriteLine(_period);
                            }
                        },
                        null, _period, _period);
                }

                public Task Check() => Task.Factory.StartNew(() =>
                {
                    Console.WriteLine(_period);
                }, CancellationToken.None, TaskCreationOptions.None, TaskScheduler.Default);
            }
            """;
        foreach (var setup in new[] { GauntletSetup.Single, GauntletSetup.Modern })
        {
            var result = await FormatRun.FixAsync(setup, code, DiagnosticIds.CallbackState, DiagnosticIds.UseTaskState);
            Assert.Contains(
                "        _timer = new Timer(static state =>\n            {\n                var self = (Heartbeat)state!;\n"
                + "                if (self._period > 10)\n                {\n                    Console.WriteLine(self._period);\n"
                + "                }\n            },\n            this, _period, _period);",
                result,
                StringComparison.Ordinal);
            Assert.Contains("    public Task Check() => Task.Factory.StartNew(\n", result, StringComparison.Ordinal);
            Assert.Equal(result, await FormatRun.FixAsync(setup, result, DiagnosticIds.CallbackState, DiagnosticIds.UseTaskState));
        }
    }

    /// <summary>
    /// A <c>/* … */</c> comment over several lines in code a fix moves keeps its lines under its first: Open.ChannelExtensions'
    /// buffering reader explains its flush in one inside a <c>ContinueWith</c> lambda, and TPL0001's fix indented the
    /// <c>/*</c> line with the body but left the <c> * </c> lines where they were. A string's lines stay as written.
    /// </summary>
    [Fact]
    public async Task ABlockCommentInMovedCode_MovesWithIt()
    {
        const string code = """
            using System;
            using System.Threading.Tasks;

            public sealed class Reader
            {
                private readonly object _gate = new object();

                public void Watch(Task source) =>
                    source.ContinueWith(t =>
                    {
                        lock (_gate)
                        {
                            /* Once the source is done,
                             * flush what is left. */
                            Console.WriteLine(@"flushed
                at the end" + t.Status);
                        }
                    }, TaskScheduler.Current);
            }
            """;
        var result = await FormatRun.FixAsync(GauntletSetup.Single, code, DiagnosticIds.UseTaskState);
        Assert.Equal(result, await FormatRun.FixAsync(GauntletSetup.Single, result, DiagnosticIds.UseTaskState));
        Assert.Contains("""
                                /* Once the source is done,
                                 * flush what is left. */
                                Console.WriteLine(@"flushed
                at the end" + t.Status);
            """, result, StringComparison.Ordinal);
    }

    /// <summary>
    /// The author's spacing stays where a diff of the text would line the spaces up wrongly: below a line the fix adds
    /// (the state's unpacking), a run of spaces for alignment (<c>var total   = x+y;</c> came back <c>var total = x+y;</c>),
    /// and a space the author put before <c>)</c>, which the diff paired with the one the formatter put after <c>+</c>
    /// (<c>( total+product )</c> came back <c>( total+ product)</c>). Tokens are matched, not spaces.
    /// </summary>
    [Fact]
    public async Task AuthorsAlignmentAndSpacesBeforeAParenthesis_Stay()
    {
        const string code = """
            using System;
            using System.Collections.Concurrent;
            using System.Threading.Tasks;

            public sealed class Sums
            {
                private readonly ConcurrentDictionary<string, int> _map = new ConcurrentDictionary<string, int>();
                private int _offset;

                public Task Run(int x, int y) => Task.Run(() =>
                {
                    var total   = x+y;      // aligned by hand
                    var product = x*y;
                    Console.WriteLine( total+product );
                });

                public int Get(string key, int seed) => _map.GetOrAdd(key, k => k.Length+seed  +_offset);
            }
            """;
        var result = await FormatRun.FixAsync(GauntletSetup.Single, code, DiagnosticIds.TaskRunState, DiagnosticIds.StateOverload);
        Assert.Contains("var (x, y) = ((int, int))state!;", result, StringComparison.Ordinal);
        Assert.Contains("\n            var total   = x+y;      // aligned by hand\n            var product = x*y;\n", result, StringComparison.Ordinal);
        Assert.Contains("Console.WriteLine( total+product );", result, StringComparison.Ordinal);
        Assert.Contains("return k.Length+seed  +self._offset;", result, StringComparison.Ordinal);
        Assert.Equal(result, await FormatRun.FixAsync(GauntletSetup.Single, result, DiagnosticIds.TaskRunState, DiagnosticIds.StateOverload));

        // A library of two targets, netstandard2.0 beside net10.0 (TPL0007 gives no fix at C# 7.3 beside nullable
        // annotations): the fix, written for both, keeps the same spacing, and a second run changes nothing.
        var twoTargets = await FormatRun.FixAsync(GauntletSetup.Modern, code, DiagnosticIds.TaskRunState, DiagnosticIds.StateOverload);
        Assert.Contains("StartNew(", twoTargets, StringComparison.Ordinal);
        Assert.Contains("var total   = ", twoTargets, StringComparison.Ordinal);
        Assert.Contains("Console.WriteLine( total+product );", twoTargets, StringComparison.Ordinal);
        Assert.Equal(twoTargets, await FormatRun.FixAsync(GauntletSetup.Modern, twoTargets, DiagnosticIds.TaskRunState, DiagnosticIds.StateOverload));
    }

    /// <summary>
    /// Spaces at the end of a line the fix did not write stay: formatting the call TPL0019 gave arguments trimmed them
    /// inside its lambda (DotNetty's channel pool has <c>if (this.pool.closed) </c>), a diff of lines the fix never
    /// touched. Only the spaces before a line break that the rewrite left where they were come back, on a line that is
    /// still the author's.
    /// </summary>
    [Fact]
    public async Task SpacesAtTheEndOfAnUntouchedLine_Stay()
    {
        var code = """
            using System;
            using System.Threading.Tasks;

            public sealed class Pool
            {
                private bool _closed;

                public void Watch(Task<int> lease) => lease.ContinueWith(t =>
                {
                    if (_closed)TRAIL
                    {
                        Console.WriteLine(t.Result);TRAIL
                    }
                });
            }
            """.Replace("TRAIL", "  ", StringComparison.Ordinal);
        var result = await FixOnEveryTargetAsync(code, DiagnosticIds.ExplicitScheduler);
        Assert.Contains("TaskScheduler.Current", result, StringComparison.Ordinal);
        Assert.Contains("if (_closed)  \n", result, StringComparison.Ordinal);
        Assert.Contains("Console.WriteLine(t.Result);  \n", result, StringComparison.Ordinal);

        // A state argument TPL0001 writes after the author's "}, " ends its own line without them; a line the fix
        // rewrote (_closed qualified) is the formatter's, the one it left is the author's.
        // The same in a project that shares the file between two targets, and a second run leaves it.
        var withState = code.Replace("});", "}, TRAIL\n            TaskContinuationOptions.None);", StringComparison.Ordinal).Replace("TRAIL", " ", StringComparison.Ordinal);
        foreach (var setup in new[] { GauntletSetup.Single, GauntletSetup.Modern })
        {
            var stated = await FormatRun.FixAsync(setup, withState, DiagnosticIds.UseTaskState);
            Assert.Contains("\n            this,\n", stated, StringComparison.Ordinal);
            Assert.Contains("if (self._closed)\n", stated, StringComparison.Ordinal);
            Assert.Contains("Console.WriteLine(t.Result);  \n", stated, StringComparison.Ordinal);
            Assert.Equal(stated, await FormatRun.FixAsync(setup, stated, DiagnosticIds.UseTaskState));
        }
    }

    /// <summary>
    /// A line the rewrite made too long is wrapped at the list the rewrite wrote, not at the first list on the line:
    /// TPL0019's arguments on azure-amqp's SASL handler (<c>x.AuthenticateAsync(id, password).ContinueWith(…)</c>, one
    /// long line) spread the receiver's call, which it never touched, and left its own list on a line still too long.
    /// Both orders of TPL0001 and TPL0019 then give one text.
    /// </summary>
    [Fact]
    public async Task ALineTheRewriteMadeTooLong_IsWrappedAtTheListItWrote()
    {
        const string code = """
            using System.Threading.Tasks;

            public interface IAuthenticator
            {
                Task<bool> AuthenticateAsync(string identity, string password);
            }

            public sealed class PlainHandler
            {
                private readonly IAuthenticator _authenticator;

                public PlainHandler(IAuthenticator authenticator) => _authenticator = authenticator;

                public string Identity { get; set; } = "";

                public void OnResponse(string password)
                {
                    this._authenticator.AuthenticateAsync(this.Identity, password).ContinueWith((t) => this.Complete(t), TaskContinuationOptions.ExecuteSynchronously);
                }

                private void Complete(Task<bool> t) { }
            }
            """;
        var scheduler = await FixOnEveryTargetAsync(code, DiagnosticIds.ExplicitScheduler);
        Assert.Contains("""
                    this._authenticator.AuthenticateAsync(this.Identity, password).ContinueWith(
                        (t) => this.Complete(t),
                        CancellationToken.None,
            """, scheduler, StringComparison.Ordinal);
        var stateFirst = await FormatRun.FixAsync(GauntletSetup.Single, code, DiagnosticIds.UseTaskState, DiagnosticIds.ExplicitScheduler);
        var schedulerFirst = await FormatRun.FixAsync(GauntletSetup.Single, code, DiagnosticIds.ExplicitScheduler, DiagnosticIds.UseTaskState);
        Assert.Equal(stateFirst, schedulerFirst);
        Assert.Contains("AuthenticateAsync(this.Identity, password).ContinueWith(\n", stateFirst, StringComparison.Ordinal);
    }

    [Fact]
    public async Task MaxLineLengthAndTabs_AreTheEditorConfigs()
    {
        var code = Method("\treturn Add(a, b);\n");
        var result = await SharedLayerTests.RewriteAsync(code, "return Add(a, b);", "return Add3(a + a + a, b + b + b, a + b + a);", "indent_style = tab\nmax_line_length = 40\n");
        Assert.Contains("\treturn Add3(\n\t\ta + a + a,\n\t\tb + b + b,\n\t\ta + b + a);", result, StringComparison.Ordinal);
    }

    /// <summary>
    /// A file indented two spaces a level with no .editorconfig that says so: what the fixes write is indented two
    /// spaces a level too. The formatter indented it by its default of four (a field, a block, a lambda's body), and
    /// the member after a rewritten one moved with it.
    /// </summary>
    [Fact]
    public async Task FileIndentedByTwoSpaces_GetsCodeIndentedByTwo()
    {
        const string code = """
            using System.Threading.Tasks;

            public sealed class Waiter
            {
              private readonly int _limit = 3;

              public Task<int> Answer() => Task.FromResult(42);

              public async Task<bool> InTimeAsync(Task work) => await Task.WhenAny(work, Task.Delay(60_000)) == work;

              public Task<int> Limit() => Task.Factory.StartNew(() => _limit + 1);
            }
            """;
        var result = await FormatRun.FixAsync(code, DiagnosticIds.CacheConstantTaskResult, DiagnosticIds.DelayTimer, DiagnosticIds.UseTaskState);
        Assert.Equal(
            """
            using System.Threading;
            using System.Threading.Tasks;

            public sealed class Waiter
            {
              private static readonly Task<int> _int42Task = Task.FromResult(42);
              private readonly int _limit = 3;

              public Task<int> Answer() => _int42Task;

              public async Task<bool> InTimeAsync(Task work)
              {
                using var delayCancellation = new CancellationTokenSource();
                var winner = await Task.WhenAny(work, Task.Delay(60_000, delayCancellation.Token));
                delayCancellation.Cancel();
                return winner == work;
              }

              public Task<int> Limit() => Task.Factory.StartNew(static state =>
              {
                var self = (Waiter)state!;
                return self._limit + 1;
              }, this);
            }
            """.ReplaceLineEndings("\n"),
            result.ReplaceLineEndings("\n"));
    }

    /// <summary>
    /// A file indented with tabs and no .editorconfig: the block a fix makes is indented with tabs, as the file is; the
    /// formatter's default wrote spaces. A comment the rewrite put back above the member took a space for each tab.
    /// </summary>
    [Fact]
    public async Task FileIndentedWithTabs_GetsCodeIndentedWithTabs()
    {
        const string code = "using System.Threading.Tasks;\n\npublic sealed class Steps\n{\n\tprivate static Task Step(int n) => Task.Delay(n);\n\n"
            + "\tpublic Task Both() => Step(1) /* first */ .ContinueWith(_ => Step(2)).Unwrap();\n}\n";
        var result = await FormatRun.FixEachSiteAsync(code, DiagnosticIds.ContinueWithUnwrapChain);
        Assert.Contains(
            "\n\t/* first */\n\tpublic async Task Both()\n\t{\n\t\tawait Step(1).ConfigureAwait(false);\n\t\tawait Step(2).ConfigureAwait(false);\n\t}\n",
            result.ReplaceLineEndings("\n"),
            StringComparison.Ordinal);
    }

    /// <summary>The .editorconfig's <c>indent_size</c> wins over the file's own step, as the formatter's does.</summary>
    [Fact]
    public async Task IndentSizeTheEditorConfigSets_WinsOverTheFilesOwn()
    {
        const string code = "class C\n{\n  int M(int a, int b)\n  {\n    return Add(a, b);\n  }\n\n  static int Add(int x, int y) => x + y;\n  static int Add3(int x, int y, int z) => x + y + z;\n}\n";
        var call = "return Add3(" + string.Join(", ", Enumerable.Repeat("Add(Add(a, b), Add(b, a)) + Add(Add(a, b), Add(b, a))", 3)) + ");";
        var own = await SharedLayerTests.RewriteAsync(code, "return Add(a, b);", call);
        Assert.Contains("    return Add3(\n      Add(Add(a, b), Add(b, a)) + ", own, StringComparison.Ordinal);
        var configured = await SharedLayerTests.RewriteAsync(code, "return Add(a, b);", call, "indent_size = 4\n");
        Assert.Contains("    return Add3(\n        Add(Add(a, b), Add(b, a)) + ", configured, StringComparison.Ordinal);
    }

    [Fact]
    public async Task LambdaBlockTheRewriteWrote_GetsOneStatementALine()
    {
        var code = Method("""
                System.Func<int> f = () => Add(a,
                                               b);
                return f();
            """);
        var start = code.IndexOf("() => Add(a,", StringComparison.Ordinal);
        var from = code[start..(code.IndexOf("b);", StringComparison.Ordinal) + 3)];
        var to = from.Replace("() => Add(a,", "() => { var c = a; return Add(a,", StringComparison.Ordinal).Replace("b);", "b); };", StringComparison.Ordinal);
        var result = await SharedLayerTests.RewriteAsync(code, from, to);
        Assert.Contains("() =>\n        {\n            var c = a;\n            return Add(a,\n                       b);\n        };", result, StringComparison.Ordinal);
    }

    /// <summary>A lambda block holding an #if is not rebuilt one statement a line (its directives would go): the rewrite stands as written.</summary>
    [Fact]
    public async Task LambdaBlockHoldingAnIf_IsLeftAsWritten_AndTheRewriteApplied()
    {
        var code = Method("""
                System.Func<int> f = () => { var c = a;
            #if DEBUG
                c++;
            #endif
                return c; };
                return f();
            """);
        var result = await SharedLayerTests.RewriteAsync(code, "var c = a;", "var c = b;");
        Assert.Contains("() => { var c = b;\n    #if DEBUG\n        c++;\n    #endif\n        return c; };", result, StringComparison.Ordinal);
    }

    /// <summary>A block's last statement on the file's last line (no line break after it) is laid out too.</summary>
    [Fact]
    public async Task LambdaBlockOnTheFilesLastLine_GetsOneStatementALine()
    {
        const string code = "class C\n{\n    System.Func<int> F = () => { var c = 1;\n        return c; }; }";
        var result = await SharedLayerTests.RewriteAsync(code, "var c = 1;", "var c = 2;");
        Assert.Contains("() =>\n    {\n        var c = 2;\n        return c;\n    };", result, StringComparison.Ordinal);
    }

    [Fact]
    public async Task MultiLineStringInMovedCode_KeepsItsText()
    {
        var code = Method("""
                System.Console.WriteLine(@"first
            second", Add(a,
                         b));
                return 0;
            """);
        var result = await SharedLayerTests.RewriteAsync(code, "System.Console.WriteLine(@\"first", "if (a > 0) System.Console.WriteLine(@\"first");
        Assert.Contains("@\"first\n    second\"", result, StringComparison.Ordinal);
    }

    /// <summary>
    /// An author's one-line method bodies, one on a line longer than the file allows, each holding a call two or three
    /// rules rewrite, in a file with no other statements side by side. Whichever fix comes first lays the body out one statement a line (one that makes the line longer
    /// wraps it, one that writes lines into it spreads it, a lambda block inside it included), and the style the next
    /// fix reads does not count statements side by side on a line too long to keep: every order gives one text. It
    /// used to depend on the order.
    /// </summary>
    [Fact]
    public async Task OneLineBodiesTwoRulesRewrite_GiveOneTextInEveryOrder()
    {
        const string code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            public static class Api
            {
                public static Task<int> Forward(Task<int> first, int offset) { var done = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously); first.ContinueWith(t => done.TrySetResult(t.Result + offset)); return done.Task; }
                public static void Print(Task first, int n) { first.ContinueWith(_ => Console.WriteLine(n)); }
            }

            public sealed class Holder
            {
                private int _last;

                public void Keep(Task<int> first) { first.ContinueWith(x => { _last = x.Result; }); }
            }
            """;
        string[] rules = [DiagnosticIds.UseTaskState, DiagnosticIds.TrivialContinuation, DiagnosticIds.ExplicitScheduler];
        var byId = await FormatRun.FixAsync(code, rules);
        foreach (var order in new[] { rules.Reverse().ToArray(), [rules[1], rules[0], rules[2]], [rules[2], rules[0], rules[1]] })
        {
            Assert.Equal(byId, await FormatRun.FixAsync(code, order));
        }

        Assert.Contains("    public static Task<int> Forward(Task<int> first, int offset)\n    {\n        var done = ", byId, StringComparison.Ordinal);
        Assert.Contains("    public static void Print(Task first, int n)\n    {\n        first.ContinueWith(", byId, StringComparison.Ordinal);
        Assert.Contains("            static (x, state) =>\n            {\n                var self = (Holder)state!;", byId, StringComparison.Ordinal);
    }

    /// <summary>
    /// TPL0001 writes a block into a one-line <c>StartNew</c> or <c>ContinueWith</c>, TPL0019 adds arguments after it:
    /// either order gives one text. A line comment after <c>}, state));</c> speaks of the statement, not of the state
    /// beside the brace, so it stays at the end; a chain's second list, opening on the line where the first one closes,
    /// indents from where that line goes (both found by the long rule-pair run); and a <c>ContinueWith</c> made too long
    /// on the line that closes a lambda's block (<c>}, token).ContinueWith(…)</c>, Foundatio's queue worker) is wrapped at
    /// its own list, not by moving the token before it to a line of its own, which only one order did. Where TPL0007 then
    /// rewrites the <c>Task.Run</c> before that list, the list moves with the line it opens on.
    /// </summary>
    [Fact]
    public async Task BlockThenArguments_GiveOneTextInEitherOrder()
    {
        const string code = """
            using System;
            using System.Threading;
            using System.Threading.Tasks;

            class C
            {
                void M(int x, Action<int> log, CancellationTokenSource linkedCancellationTokenSource)
                {
                    _ = Task.Factory.StartNew(() => log(x));        // the first
                    _ = Task.Factory.StartNew(() => log(x)).ContinueWith(t => log(x + 1));
                    _ = Task.Run(async () =>
                    {
                        await Task.Delay(10);
                        log(x);
                    }, linkedCancellationTokenSource.Token).ContinueWith(_ => linkedCancellationTokenSource.Dispose());
                }
            }
            """;
        var stateFirst = await FormatRun.FixAsync(code, DiagnosticIds.UseTaskState, DiagnosticIds.ExplicitScheduler);
        Assert.Equal(stateFirst, await FormatRun.FixAsync(code, DiagnosticIds.ExplicitScheduler, DiagnosticIds.UseTaskState));
        Assert.Contains("            TaskScheduler.Current);        // the first\n", stateFirst, StringComparison.Ordinal);
        Assert.Contains("            TaskScheduler.Current).ContinueWith(\n                static (t, state) =>\n                {\n                    var (log, x)", stateFirst, StringComparison.Ordinal);
        Assert.Contains("        }, linkedCancellationTokenSource.Token).ContinueWith(\n            static (_, state) =>", stateFirst, StringComparison.Ordinal);

        // TPL0007 rewrites the receiver of a ContinueWith whose list TPL0019 spread: the rest of the chain moves with the
        // line it starts on, as it does when the list is spread last.
        var runFirst = await FormatRun.FixAsync(code, DiagnosticIds.TaskRunState, DiagnosticIds.ExplicitScheduler);
        Assert.Equal(runFirst, await FormatRun.FixAsync(code, DiagnosticIds.ExplicitScheduler, DiagnosticIds.TaskRunState));
        Assert.Contains("            TaskScheduler.Default).Unwrap().ContinueWith(\n                _ => linkedCancellationTokenSource.Dispose(),", runFirst, StringComparison.Ordinal);
    }

    /// <summary>
    /// A list whose <c>)</c> sits on the next line, after a line comment (<c>Task.Delay(400 // the time-out</c>), made too
    /// long by an added argument, is wrapped on its own line like one that closes there (found by the long gauntlet's
    /// "comments everywhere" context: only lists wholly on the line were wrapped, and the fix wrote a line of 212).
    /// </summary>
    [Fact]
    public async Task ListClosingOnTheNextLine_IsWrappedWhereTheFixMadeItLong()
    {
        const string code = """
            using System.Threading.Tasks;

            static class Api
            {
                static async Task<bool> RaceAgainstTheClock(Task workThatMayTakeAVeryLongTimeToComplete)
                {
                    var firstOfTheTwoToFinish = await Task.WhenAny(workThatMayTakeAVeryLongTimeToComplete, Task.Delay(400 // the time-out, in milliseconds, as the service agreement says
                    ));
                    return firstOfTheTwoToFinish == workThatMayTakeAVeryLongTimeToComplete;
                }
            }
            """;
        var result = await FormatRun.FixAsync(code, DiagnosticIds.DelayTimer);
        Assert.Contains("Task.Delay(\n            400,\n            delayCancellation.Token // the time-out, in milliseconds, as the service agreement says\n        ));", result, StringComparison.Ordinal);
        Assert.All(result.Split('\n'), l => Assert.True(l.Length <= 160, l));
    }

    /// <summary>
    /// A body block laid out again keeps the comments before its brace: one after a line comment goes on a line of its
    /// own, not after that comment, where it would become part of it.
    /// </summary>
    [Fact]
    public async Task BlockLaidOutAgain_KeepsACommentAfterALineComment()
    {
        const string code = """
            using System;
            using System.Threading.Tasks;

            public static class Api
            {
                static int Work(int i) => i;

                public static Func<int, Task<int>> Sum() => async n => // runs the loop
                    /* the body */ {
                    var total = 0;
                    for (var i = 0; i < n; i++) total += await Task.Run(() => Work(i));
                    return total; };
            }
            """;
        var result = await FormatRun.FixAsync(code, DiagnosticIds.AwaitInLoop);
        var lines = result.Split('\n');
        Assert.Contains(lines, l => l.TrimEnd().EndsWith("async n => // runs the loop", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Trim() == "/* the body */");
        Assert.Contains("await Task.Run(() =>", result, StringComparison.Ordinal);
    }

    /// <summary>
    /// The code after <paramref name="rule"/>'s fix on net10.0, required to be the same text in a project that shares the
    /// file between netstandard2.0 at C# 7.3 and net10.0 with nullable warnings, and to be left as it is by a second run.
    /// </summary>
    private static async Task<string> FixOnEveryTargetAsync(string code, string rule)
    {
        var result = await FormatRun.FixAsync(GauntletSetup.Single, code, rule);
        Assert.Equal(result, await FormatRun.FixAsync(GauntletSetup.Legacy, code, rule));
        Assert.Equal(result, await FormatRun.FixAsync(GauntletSetup.Single, result, rule));
        return result;
    }

    /// <summary>The body (indented as a raw string leaves it, or with tabs) in a method of a class.</summary>
    private static string Method(string body) => "class C\n{\n    int M(int a, int b)\n    {\n"
        + string.Join("\n", body.TrimEnd('\n').Split('\n').Select(l => l.StartsWith('\t') || l.Length == 0 ? l : "    " + l)) + "\n    }\n" + Helpers;
}
