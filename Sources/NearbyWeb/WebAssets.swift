/// The page, its script and its style: files in `Assets/`, embedded in the binary by SwiftPM
/// (`.embedInCode`), so the view works offline and from any directory.
enum WebAssets {
    /// `index.html` with `__QUERY__` where the asset addresses take the token.
    static let pageTemplate = String(decoding: PackageResources.index_html, as: UTF8.self)
    /// `app.js`.
    static let script = String(decoding: PackageResources.app_js, as: UTF8.self)
    /// `app.css`.
    static let style = String(decoding: PackageResources.app_css, as: UTF8.self)

    /// The page with `query` (`?token=...` or empty) on its script and style addresses. `query`
    /// holds only URL-safe characters (``WebAccess/validate(token:)``), never request input.
    static func page(query: String) -> String {
        pageTemplate.replacing("__QUERY__", with: query)
    }
}
