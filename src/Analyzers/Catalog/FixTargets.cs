using System;

namespace TplPractices.Analyzers.Catalog;

/// <summary>
/// What a rule's fix rewrites. Two rules whose fixes share a target can rewrite one node, so the order in which
/// <c>dotnet format</c> runs them must not change the text: the catalog test finds every such pair from these flags
/// and requires a case that fixes it both ways.
/// </summary>
[Flags]
internal enum FixTargets
{
    None = 0,

    /// <summary>The arguments of a StartNew, ContinueWith or new Task call: delegate, state, options.</summary>
    TaskCallArguments = 1 << 0,

    /// <summary>The options argument of a TaskCompletionSource's creation.</summary>
    CompletionSourceOptions = 1 << 1,

    /// <summary>A whole Task.Run or StartNew call, replaced by another call.</summary>
    TaskRunCall = 1 << 2,

    /// <summary>A ContinueWith call or chain, replaced by awaits.</summary>
    ContinueWithChain = 1 << 3,

    /// <summary>The callback and state arguments of a callback API other than a task's (Register, QueueUserWorkItem, GetOrAdd).</summary>
    CallbackAndState = 1 << 4,

    /// <summary>A Task.FromResult or other completed-task expression.</summary>
    CompletedTask = 1 << 5,

    /// <summary>An await expression.</summary>
    Await = 1 << 6,

    /// <summary>A loop statement.</summary>
    Loop = 1 << 7,

    /// <summary>A method's signature: its return type or async modifier.</summary>
    Signature = 1 << 8,

    /// <summary>Statements moved into a member the fix adds, or a field the fix adds to the type.</summary>
    TypeMembers = 1 << 9,

    /// <summary>A statement of a constructor or a helper it calls.</summary>
    ConstructorStatement = 1 << 10,

    /// <summary>A wait on a task's handle.</summary>
    WaitCall = 1 << 11,

    /// <summary>A local's declaration, made a using declaration or statement; or a using declaration added before a statement, which then reads it.</summary>
    LocalDeclaration = 1 << 12,
}
