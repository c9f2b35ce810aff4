export declare const CORE_LAYERS: ReadonlyArray<{ layer: string; holds: string; imports: readonly string[] }>;
export declare function layerZones(): Array<{ target: string; from: string; message: string }>;
