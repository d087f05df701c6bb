using TplPractices.Analyzers.Tests.Verifiers;
using Verify = TplPractices.Analyzers.Tests.Verifiers.CSharpCodeFixVerifier<
    TplPractices.Analyzers.Rules.PassThroughAsyncAnalyzer,
    TplPractices.Analyzers.CodeFixes.Rules.PassThroughAsyncFixer>;

namespace TplPractices.Analyzers.Tests.Rules;

/// <summary>
/// TPL0016 on a call through a readonly field a constructor sets with a <c>new</c> or a checked parameter: the field is
/// never null when the method runs only if the constructor sets it on every path before any code can run a method of
/// the object. Code that runs earlier (a call of the method itself, a virtual call, a property read, a lambda, a base
/// constructor of the project that does so) may call the method while the field is null: the original stores the
/// NullReferenceException in its task, the fixed one throws it out of the constructor. A constructor that builds its
/// other parts first (a test fixture that makes its mocks, then the object under test) is still reported, as is one
/// whose parameter's type has the name of a property (<c>Store Store</c>): a type name runs no code.
/// </summary>
public sealed class PassThroughAsyncReceiverSetTests
{
    private const string Store = """
        using System;
        using System.Threading.Tasks;

        public sealed class Store
        {
            public async Task<int> LoadAsync() { await Task.Yield(); return 1; }
        }

        """;

    [Fact]
    public async Task FieldSetAfterCodeThatMayRunTheMethod_OrOnOnePath_IsNotReported()
    {
        await Verify.VerifyAnalyzerAsync(Store + """
            public class StartsEarly
            {
                private readonly Store _store;
                public StartsEarly() { Pending = GetAsync(); _store = new Store(); }
                public Task<int> Pending { get; }
                public async Task<int> GetAsync() => await _store.LoadAsync();
            }

            public class NotifiesFirst
            {
                private readonly Store _store;
                public NotifiesFirst(Store store) { Created(); _store = store ?? throw new ArgumentNullException(nameof(store)); }
                protected virtual void Created() { }
                public async Task<int> GetAsync() => await _store.LoadAsync();
            }

            public class ReadsAPropertyFirst
            {
                private readonly Store _store;
                public ReadsAPropertyFirst() { var name = Name; _store = new Store(); }
                public virtual string Name => "";
                public async Task<int> GetAsync() => await _store.LoadAsync();
            }

            public class HandsOutALambdaFirst
            {
                private readonly Store _store;
                public HandsOutALambdaFirst(Action<Func<Task<int>>> register) { register(() => GetAsync()); _store = new Store(); }
                public async Task<int> GetAsync() => await _store.LoadAsync();
            }

            public class PassesItselfFirst
            {
                private readonly Store _store;
                public PassesItselfFirst(Action<object> register) { register(this); _store = new Store(); }
                public async Task<int> GetAsync() => await _store.LoadAsync();
            }

            public class CallsALocalFunctionFirst
            {
                private readonly Store _store;
                public CallsALocalFunctionFirst() { Start(); _store = new Store(); void Start() => Pending = GetAsync(); }
                public Task<int> Pending { get; private set; }
                public async Task<int> GetAsync() => await _store.LoadAsync();
            }

            public class SetsOnOnePath
            {
                private readonly Store _store;
                public SetsOnOnePath(bool ready) { if (ready) _store = new Store(); }
                public async Task<int> GetAsync() => await _store.LoadAsync();
            }

            public class SetsInATry
            {
                private readonly Store _store;
                public SetsInATry() { try { _store = new Store(); } catch (InvalidOperationException) { } }
                public async Task<int> GetAsync() => await _store.LoadAsync();
            }

            public abstract class Template
            {
                protected Template() { Initialize(); }
                protected abstract void Initialize();
            }

            public class FromATemplate : Template
            {
                private readonly Store _store;
                public FromATemplate() { _store = new Store(); }
                protected override void Initialize() { }
                public async Task<int> GetAsync() => await _store.LoadAsync();
            }
            """);
    }

    [Fact]
    public async Task FieldSetFirst_OrAfterCodeThatCannotReachTheObject_IsFixed()
    {
        // One literal with its usings, so the gauntlet takes it as a case too.
        const string before = """
            using System;
            using System.Threading.Tasks;

            public sealed class Store
            {
                public async Task<int> LoadAsync() { await Task.Yield(); return 1; }
            }

            public sealed class Mock
            {
                public Mock(string name) { Name = name; }
                public string Name { get; }
                public Mock Setup(int value) => this;
            }

            public class Fixture
            {
                protected readonly Mock _first;
                protected readonly Store _target;
                private readonly int _size;

                protected Fixture(int size)
                {
                    ArgumentNullException.ThrowIfNull(nameof(size));
                    _first = new Mock(nameof(Fixture)).Setup(size);
                    this._size = size;
                    var label = _first.Name + _size;
                    _target = new Store();
                }
            }

            public class Scenario : Fixture
            {
                public Scenario() : base(3) { }

                protected async Task<int> TargetAsync() => {|#0:await|} _target.LoadAsync();
            }

            public class Plain
            {
                private readonly Store _store;
                public Plain(Store store) => _store = store ?? throw new ArgumentNullException(nameof(store));
                public Store Store => _store;
                public async Task<int> GetAsync() { return {|#1:await|} _store.LoadAsync(); }
            }
            """;
        var after = before
            .Replace("protected async Task<int> TargetAsync() => {|#0:await|} _target.LoadAsync();", "protected Task<int> TargetAsync() => _target.LoadAsync();", StringComparison.Ordinal)
            .Replace("public async Task<int> GetAsync() { return {|#1:await|} _store.LoadAsync(); }", "public Task<int> GetAsync() { return _store.LoadAsync(); }", StringComparison.Ordinal);
        await new Verify.Test
        {
            TestCode = before,
            FixedCode = after,
            ExpectedDiagnostics =
            {
                Verify.Diagnostic().WithLocation(0).WithArguments("'TargetAsync'", "'LoadAsync'"),
                Verify.Diagnostic().WithLocation(1).WithArguments("'GetAsync'", "'LoadAsync'"),
            },
        }.RunAsync();
    }

    [Fact]
    public async Task FixedCode_DoesWhatTheOriginalDid_WhenTheFixtureIsBuilt()
    {
        var code = TestMarkup.Strip("""
            using System.Threading.Tasks;

            public sealed class Store
            {
                public async Task<int> LoadAsync() { await Task.Yield(); return 1; }
            }

            public class Fixture
            {
                protected readonly Store _target;
                protected Fixture() { var before = nameof(Fixture).Length; _target = new Store(); }
            }

            public class Scenario : Fixture
            {
                public async Task<int> TargetAsync() => {|#0:await|} _target.LoadAsync();
            }

            public static class Api
            {
                public static async Task<int> Run() => await new Scenario().TargetAsync() + 1;
            }
            """);
        var fixedCode = code.Replace("public async Task<int> TargetAsync() => await _target.LoadAsync();", "public Task<int> TargetAsync() => _target.LoadAsync();", StringComparison.Ordinal);
        Assert.NotEqual(code, fixedCode);
        var original = await CodeRunner.RunAsync(code, "Api", "Run");
        Assert.Equal(original, await CodeRunner.RunAsync(fixedCode, "Api", "Run"));
        Assert.Equal("returned 2", original);
    }
}
