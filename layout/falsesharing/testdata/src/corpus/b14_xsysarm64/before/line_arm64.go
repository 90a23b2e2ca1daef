package before

const cacheLineSize = 64
