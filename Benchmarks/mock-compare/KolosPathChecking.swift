import Mockable

/// The same protocol as `PathChecking`, mocked by Kolos65/Mockable's `@Mockable`
/// (its mock exists where `MOCKING` is defined, as the scratch package's manifest does).
@Mockable
protocol KolosPathChecking: Sendable {
    func fileExists(at path: String) -> Bool
}
