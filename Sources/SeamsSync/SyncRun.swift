import Foundation
import SeamsCore

/// What every stage of one run reads: the two replicas (each with its own boundaries), the
/// state's folder, the options, and whether the run was asked to stop.
///
/// The stages, in order: ``PrepareStage`` → ``ScanStage`` → ``PlanStage`` → ``ApplyStage`` →
/// ``CommitStage`` → ``PurgeStage``. Each takes what the ones before it produced as values, and
/// none reads from disk what an earlier one already knows (apart from the deliberate look at an
/// item just before it is replaced or deleted).
struct SyncRun: Sendable {
    /// The local folder, as a replica.
    let localReplica: any Replica
    /// The container (a local folder or a server's collection), as a replica.
    let containerReplica: any Replica
    /// Where the pair's state lives, on this machine's file system (the local replica's boundaries).
    let stateDirectory: URL
    /// Guards, dry run, retention, batches.
    let options: SyncOptions
    /// Whether the run was asked to stop; looked at between steps, never inside one change.
    let shouldStop: @Sendable () -> Bool

    /// The local folder.
    var local: URL { localReplica.root }
    /// The container.
    var container: URL { containerReplica.root }

    /// The replica of `side`.
    func replica(_ side: Side) -> any Replica { side == .local ? localReplica : containerReplica }

    /// The root of `side`.
    func root(_ side: Side) -> URL { replica(side).root }

    /// Whether `side` can do all of `capabilities`.
    func can(_ side: Side, _ capabilities: ReplicaCapabilities) -> Bool {
        replica(side).can(capabilities)
    }

    /// Copies and comparisons between the two replicas.
    var transfers: ReplicaTransfers { ReplicaTransfers(local: localReplica, container: containerReplica) }
}
