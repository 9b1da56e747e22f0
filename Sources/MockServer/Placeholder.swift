enum MockServerPlaceholder {}
