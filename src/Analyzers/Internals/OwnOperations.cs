using System;
using System.Collections.Generic;
using Microsoft.CodeAnalysis;

namespace TplPractices.Analyzers.Internals;

/// <summary>
/// The operations of a function's own code under a root: every descendant but those of the lambdas and local functions
/// in it, which run at another time. Walked with a stack, testing <c>Kind</c>: no iterator, no interface type test.
/// </summary>
internal static class OwnOperations
{
    /// <summary>The root and its own descendants.</summary>
    public static List<IOperation> Of(IOperation root)
    {
        var found = new List<IOperation>();
        var pending = new Stack<IOperation>();
        pending.Push(root);
        while (pending.Count > 0)
        {
            var operation = pending.Pop();
            found.Add(operation);
            PushChildren(operation, pending);
        }

        return found;
    }

    /// <summary>Whether <paramref name="found"/> holds for the root or one of its own descendants; stops at the first.</summary>
    public static bool Any(IOperation root, Func<IOperation, bool> found)
    {
        var pending = new Stack<IOperation>();
        pending.Push(root);
        while (pending.Count > 0)
        {
            var operation = pending.Pop();
            if (found(operation))
            {
                return true;
            }

            PushChildren(operation, pending);
        }

        return false;
    }

    private static void PushChildren(IOperation operation, Stack<IOperation> pending)
    {
        foreach (var child in operation.ChildOperations)
        {
            if (child.Kind is not (OperationKind.AnonymousFunction or OperationKind.LocalFunction))
            {
                pending.Push(child);
            }
        }
    }
}
