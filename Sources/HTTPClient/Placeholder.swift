enum HTTPClientPlaceholder {}
